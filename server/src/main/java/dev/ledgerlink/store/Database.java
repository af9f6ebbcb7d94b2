package dev.ledgerlink.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import dev.ledgerlink.config.DeliverySettings;
import dev.ledgerlink.store.migration.MigrationHistory;
import dev.ledgerlink.store.migration.V20__h2_identity_cache;
import dev.ledgerlink.store.migration.V21__binary_token_hashes;
import dev.ledgerlink.store.migration.V22__token_selectors;
import dev.ledgerlink.store.migration.V23__superseded_grants;
import dev.ledgerlink.store.migration.V24__h2_foreign_key_indexes;
import dev.ledgerlink.store.migration.V36__h2_sandbox_identity_cache;
import dev.ledgerlink.store.migration.V46__token_grant_order_indexes;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.callback.BaseCallback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;

/**
 * The database: a pool, the schema (Flyway migrations under db/migration, run at open), and JDBI.
 * The same SQL runs on H2 and PostgreSQL; where they differ, callers ask {@link #dialect()}.
 */
public final class Database implements AutoCloseable {

    public enum Dialect { H2, POSTGRESQL }

    private final HikariDataSource dataSource;
    private final Jdbi jdbi;
    private final Dialect dialect;
    private final GroupCommit groupCommit;
    private final DiskFull diskFull;
    /** H2 files only: the chunk rewriting H2's durable commits switch off; null otherwise. */
    private final H2Housekeeping housekeeping;
    /** Closed before the pool, last registered first (closing). */
    private final Deque<AutoCloseable> closing = new ConcurrentLinkedDeque<>();
    /** Runs after the pool closed: H2CrashRepair stops counting the file as open here. */
    private final Runnable onClose;

    private Database(HikariDataSource dataSource, Dialect dialect, Runnable onClose, DiskFull diskFull, MeterRegistry metrics) {
        this.dataSource = dataSource;
        this.diskFull = diskFull;
        this.onClose = onClose;
        this.dialect = dialect;
        this.jdbi = Jdbi.create(dataSource).installPlugin(new SqlObjectPlugin());
        TimeMapping.install(jdbi);
        this.groupCommit = new GroupCommit(jdbi);
        boolean h2File = JdbcUrls.h2DataFile(dataSource.getJdbcUrl()).isPresent();
        this.housekeeping = h2File ? H2Housekeeping.start(dataSource, diskFull::observe, metrics) : null;
        if (h2File) H2CommitFix.reportOnFileOpen();
    }

    /** Opens the pool and brings the schema up to date (the CLI's commands and tests; a server runs its own schema step). */
    public static Database open(String url, String user, String password, int poolSize, MeterRegistry metrics) {
        Database db = connect(url, user, password, poolSize, metrics);
        try {
            db.migrate(null, progress -> {});
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /**
     * Opens the pool without touching the schema: the caller decides whether to {@link #migrate} or
     * only to read the {@link #schemaStatus} (a node that must not migrate, {@code db status}).
     */
    public static Database connect(String url, String user, String password, int poolSize, MeterRegistry metrics) {
        String jdbcUrl = JdbcUrls.normalize(url);
        Dialect dialect = JdbcUrls.dialect(jdbcUrl);
        String login = userOrDefault(user, dialect);
        DiskFull diskFull = new DiskFull(describe(jdbcUrl, dialect), metrics, System::nanoTime);
        // Before H2 runs a commit (the crash repair's included): H2 loads its commit class at its first.
        if (dialect == Dialect.H2) H2CommitFix.install();
        Runnable release = dialect == Dialect.H2 ? H2CrashRepair.beforeOpen(jdbcUrl, login, password == null ? "" : password) : () -> {};
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(login);
        config.setPassword(password == null ? "" : password);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setPoolName("ledgerlink");
        // Each node's connections carry its name, so PostgreSQL (pg_stat_activity) tells the nodes apart: ConnectionBudget counts them.
        if (dialect == Dialect.POSTGRESQL) config.addDataSourceProperty("ApplicationName", ConnectionBudget.applicationName());
        config.setConnectionTimeout(DeliverySettings.CONNECTION_WAIT.toMillis());
        config.setInitializationFailTimeout(DeliverySettings.CONNECTION_WAIT.toMillis());
        // Every failure of a pooled connection passes here: the full disk is noticed wherever it happened.
        // A connection that failed because the database went away is dropped, whatever the driver's
        // SQLSTATE: H2's "database has been closed" (90098, after a full disk closed it) is not one Hikari
        // knows, and a pool under steady load (no connection idle long enough to be checked) handed out
        // the dead connections for ever, long after the database could be opened again.
        config.setExceptionOverride(new SQLExceptionOverride() {
            @java.lang.Override
            public SQLExceptionOverride.Override adjudicate(SQLException e) {
                diskFull.observe(e);
                return DatabaseUnavailable.causedBy(e) ? SQLExceptionOverride.Override.MUST_EVICT : SQLExceptionOverride.Override.CONTINUE_EVICT;
            }
        });
        if (metrics != null) config.setMetricRegistry(metrics);
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(config);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
        return new Database(ds, dialect, release, diskFull, metrics);
    }

    /**
     * Applies this build's pending migrations, up to {@code target} (a version such as "41"; null: all),
     * telling {@code progress} which one runs ("migrating V41 of V43"). Several processes may do this
     * at once: Flyway takes a lock, and the later ones find nothing left to do. Returns the schema's
     * status afterwards.
     */
    public SchemaStatus migrate(String target, Consumer<String> progress) {
        try {
            MigrationHistory.rewriteOldNames(dataSource);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the migration history: " + e.getMessage(), e);
        }
        FluentConfiguration config = migrations(dataSource, dialect);
        if (target != null) config.target(MigrationVersion.fromVersion(target));
        List<SchemaStatus.Migration> pending = SchemaStatus.of(config.load().info().all()).pending().stream()
                .filter(m -> target == null || MigrationVersion.fromVersion(m.version()).compareTo(MigrationVersion.fromVersion(target)) <= 0)
                .toList();
        if (!pending.isEmpty()) {
            String last = "V" + pending.getLast().version();
            config.callbacks(new BaseCallback() {
                @java.lang.Override
                public boolean supports(Event event, Context context) {
                    return event == Event.BEFORE_EACH_MIGRATE;
                }

                @java.lang.Override
                public void handle(Event event, Context context) {
                    var m = context.getMigrationInfo();
                    if (m != null && m.getVersion() != null) progress.accept("migrating V" + m.getVersion().getVersion() + " of " + last);
                }
            });
        }
        config.load().migrate();
        return schemaStatus();
    }

    /** The schema measured against this build's migrations; reads the migration history only. */
    public SchemaStatus schemaStatus() {
        return SchemaStatus.of(migrations(dataSource, dialect).load().info().all());
    }

    /** Every migration of the schema: the SQL scripts under db/migration and the Java ones (tests stop it at a version). */
    public static FluentConfiguration migrations(javax.sql.DataSource ds, Dialect dialect) {
        return Flyway.configure()
                .dataSource(ds)
                .locations("classpath:db/migration")
                .placeholders(java.util.Map.of("dialect", dialect.name().toLowerCase()))
                .javaMigrations(new V20__h2_identity_cache(), new V21__binary_token_hashes(), new V22__token_selectors(), new V23__superseded_grants(),
                        new V24__h2_foreign_key_indexes(), new V36__h2_sandbox_identity_cache(), new V46__token_grant_order_indexes());
    }

    /** The database as a log line names it: the H2 file, or PostgreSQL's URL without its parameters (which may hold a password). */
    static String describe(String jdbcUrl, Dialect dialect) {
        if (dialect == Dialect.H2) return JdbcUrls.h2DataFile(jdbcUrl).map(p -> "H2 file " + p).orElse("in-memory H2");
        int query = jdbcUrl.indexOf('?');
        return "PostgreSQL " + (query < 0 ? jdbcUrl : jdbcUrl.substring(0, query));
    }

    /** The database user when none is configured: H2's {@code sa}, PostgreSQL's operating-system user. */
    public static String userOrDefault(String user, Dialect dialect) {
        if (user != null && !user.isEmpty()) return user;
        return dialect == Dialect.H2 ? "sa" : System.getProperty("user.name");
    }

    public Jdbi jdbi() { return jdbi; }

    public Dialect dialect() { return dialect; }

    /** The pool itself, for what takes a DataSource rather than JDBI (Flyway's validation in MigrationsTest). */
    public javax.sql.DataSource dataSource() { return dataSource; }

    /** Transactions that share their commit with concurrent ones (the refresh grant: small, frequent, each a durable commit). */
    public GroupCommit groupCommit() { return groupCommit; }

    /** Where a write refused for want of disk space is counted and logged (once per episode, not per request). */
    public DiskFull diskFull() { return diskFull; }

    /**
     * Closes {@code resource} with the database, before its pool: a user of the pool with work in
     * flight (PostgreSQL's refresh rotations, GroupedWrites) finishes it first.
     */
    public <C extends AutoCloseable> C closing(C resource) {
        closing.push(resource);
        return resource;
    }

    /**
     * True when a connection can be had and answers within two seconds. Bounded on its own (not by
     * the pool's connection timeout, which is longer), so a readiness probe answers promptly while the
     * database is away.
     */
    public boolean isReachable() {
        var probe = CompletableFuture.supplyAsync(() -> {
            try (Connection c = dataSource.getConnection()) {
                return c.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        }, REACHABILITY_PROBES);
        try {
            return probe.get(2, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static final Executor REACHABILITY_PROBES =
            Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("db-probe").factory());

    @Override
    public void close() {
        IllegalStateException failed = null;
        for (AutoCloseable c = closing.poll(); c != null; c = closing.poll()) {
            try {
                c.close();
            } catch (Exception e) {
                if (failed == null) failed = new IllegalStateException("cannot close " + c + ": " + e.getMessage(), e);
            }
        }
        groupCommit.close();
        if (housekeeping != null) housekeeping.close();
        dataSource.close();
        onClose.run();
        if (failed != null) throw failed;
    }
}
