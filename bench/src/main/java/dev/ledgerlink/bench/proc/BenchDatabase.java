package dev.ledgerlink.bench.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A fresh, empty database for one server start: an H2 file in a temporary directory, or a new
 * schema in the PostgreSQL at 127.0.0.1:5432/test (LEDGERLINK_BENCH_PG_URL overrides). Removed on close.
 */
public final class BenchDatabase implements AutoCloseable {
    public static final String PG_URL = System.getenv().getOrDefault("LEDGERLINK_BENCH_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    public static final String PG_USER = System.getenv().getOrDefault("LEDGERLINK_BENCH_PG_USER", "postgres");

    public enum Kind {
        H2, POSTGRES;

        public String label() { return name().toLowerCase(Locale.ROOT); }
    }

    private final Kind kind;
    private final String url;
    private final String user;
    private final Path dir;
    private final String schema;
    private final AutoCloseable release;
    private final java.util.function.DoubleSupplier cpu;

    private BenchDatabase(Kind kind, String url, String user, Path dir, String schema) {
        this(kind, url, user, dir, schema, null, kind == Kind.POSTGRES ? ProcStats::postgresCpuSeconds : null);
    }

    private BenchDatabase(Kind kind, String url, String user, Path dir, String schema, AutoCloseable release,
                          java.util.function.DoubleSupplier cpu) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.dir = dir;
        this.schema = schema;
        this.release = release;
        this.cpu = cpu;
    }

    /** A database that outlives the run (the growth scenario's filled one): nothing is removed on close. */
    public static BenchDatabase kept(Kind kind, String url, String user, java.util.function.DoubleSupplier cpu) {
        return new BenchDatabase(kind, url, user, null, null, null, cpu);
    }

    /** A new database in the harness's own PostgreSQL, dropped on close. */
    public static BenchDatabase freshIn(PrivatePostgres pg, String name) {
        try {
            pg.drop(name);
            pg.create(name);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create the database " + name + " in the harness's PostgreSQL: " + e.getMessage(), e);
        }
        return new BenchDatabase(Kind.POSTGRES, pg.url(name), "postgres", null, null, () -> pg.drop(name), pg::cpuSeconds);
    }

    /**
     * The CPU seconds the database's own processes have used so far (PostgreSQL's; for the shared
     * cluster every postgres process of the machine), or null for H2, which runs in the server.
     */
    public java.util.function.DoubleSupplier cpu() { return cpu; }

    public static BenchDatabase fresh(Kind kind) {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        if (kind == Kind.H2) {
            try {
                Path dir = Files.createTempDirectory("ledgerlink-bench-");
                return new BenchDatabase(kind, "jdbc:h2:file:" + dir.resolve("db").toAbsolutePath(), "", dir, null);
            } catch (IOException e) {
                throw new IllegalStateException("cannot create a temporary directory for H2", e);
            }
        }
        String schema = "bench_" + suffix;
        try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, ""); Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + PG_URL + " does not answer (" + e.getMessage()
                    + "); scripts/bench starts it with scripts/ensure-postgres", e);
        }
        String sep = PG_URL.contains("?") ? "&" : "?";
        return new BenchDatabase(kind, PG_URL + sep + "currentSchema=" + schema, PG_USER, null, schema);
    }

    public Kind kind() { return kind; }
    public String url() { return url; }
    public String user() { return user; }

    @Override
    public void close() {
        if (release != null) {
            try {
                release.close();
            } catch (Exception e) {
                System.err.println("bench: could not remove " + url + ": " + e.getMessage());
            }
        }
        if (schema != null) {
            try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, ""); Statement st = c.createStatement()) {
                st.execute("drop schema if exists " + schema + " cascade");
            } catch (SQLException e) {
                System.err.println("bench: could not drop schema " + schema + ": " + e.getMessage());
            }
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                System.err.println("bench: could not remove " + dir + ": " + e.getMessage());
            }
        }
    }
}
