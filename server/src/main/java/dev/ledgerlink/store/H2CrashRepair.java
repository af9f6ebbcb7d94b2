package dev.ledgerlink.store;

import dev.ledgerlink.config.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * H2 after a crash (docs/operations.md, "Durability and failure").
 *
 * <p>H2 2.5 can come back from a {@code kill -9} with a row whose stored entry still names a
 * transaction that no longer exists (H2 issue #2080). Reading the row works; any UPDATE of it spins
 * forever inside H2 ({@code TransactionMap.set}: no lock timeout, and neither a query timeout nor an
 * interrupt stops it), so the delivery claim that reaches such a row never returns and deliveries
 * stall. The test resource {@code dev/ledgerlink/store/h2-stuck-row.mv.db} is a database a crash
 * test left that way.
 *
 * <p>Rebuilding the database from what a fresh session reads ({@code SCRIPT}, then {@code RUNSCRIPT}
 * into a new file) keeps every committed row, the identity counters and the schema history, and no
 * such entries. That runs before the pool opens whenever the file's header lacks H2's clean-shutdown
 * mark (an MVStore drops {@code clean:1} from its header with its first write and puts it back on
 * close), that is, when the last process that wrote to it did not close it, and only when no other
 * process has the file open. The file as it was is kept beside the rebuilt one.
 */
public final class H2CrashRepair {
    private static final Logger LOG = LoggerFactory.getLogger(H2CrashRepair.class);
    /** H2's ErrorCode.DATABASE_ALREADY_OPEN_1: another process holds the file. */
    private static final int DATABASE_ALREADY_OPEN = 90020;

    /** A rebuild: the database file, where the file as it was is kept, and how long it took. */
    public record Rebuilt(Path database, Path keptAs, Duration took) {}

    /** Another process has the file open: a running server (stop it first). */
    public static final class InUse extends IllegalStateException {
        InUse(Path file) {
            super("another process has " + file + " open; stop the server using it, then rebuild");
        }
    }

    private H2CrashRepair() {}

    /**
     * Files this process has open through {@link Database}, with how many times. H2 shares one engine
     * per file within a JVM, so its exclusive open would not refuse here: a file in this map is in use.
     */
    private static final Map<Path, Integer> OPEN_HERE = new HashMap<>();

    /**
     * Before {@link Database} opens {@code url}: rebuilds the file if it needs it, and counts it as open
     * in this process until the returned action runs (on close).
     */
    static synchronized Runnable beforeOpen(String url, String user, String password) {
        Optional<Path> file = JdbcUrls.h2DataFile(url);
        if (file.isEmpty()) return () -> {};
        if (!OPEN_HERE.containsKey(file.get())) afterUncleanShutdown(url, user, password);
        OPEN_HERE.merge(file.get(), 1, Integer::sum);
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (!released.compareAndSet(false, true)) return;
            synchronized (H2CrashRepair.class) {
                OPEN_HERE.computeIfPresent(file.get(), (f, n) -> n == 1 ? null : n - 1);
            }
        };
    }

    /** Rebuilds the H2 file of {@code url} when it was not closed cleanly and no other process has it open. */
    static synchronized Optional<Rebuilt> afterUncleanShutdown(String url, String user, String password) {
        Optional<Path> file = JdbcUrls.h2DataFile(url).filter(Files::isRegularFile);
        if (file.isEmpty() || OPEN_HERE.containsKey(file.get()) || closedCleanly(file.get())) return Optional.empty();
        Optional<Rebuilt> rebuilt;
        try {
            rebuilt = rebuildUnlessOpen(url, user, password, file.get());
        } catch (RuntimeException e) {
            // A repair that cannot be made (a full disk, say) must not keep the service down: the file
            // is opened as it is, and a row the crash damaged would show as a stalled dispatcher.
            LOG.error("the H2 database {} was not closed cleanly and could not be rebuilt ({}); opening it as it is: "
                    + "if deliveries stall, stop the server and run 'ledgerlink db rebuild' (docs/operations.md)", file.get(), e.toString());
            return Optional.empty();
        }
        rebuilt.ifPresent(r -> LOG.warn("the H2 database {} was not closed cleanly (the last process using it crashed or was "
                + "killed); rebuilt it from its committed rows in {} ms; the file as it was is kept as {}",
                r.database(), r.took().toMillis(), r.keptAs()));
        return rebuilt;
    }

    /** The same rebuild on request ({@code ledgerlink db rebuild}), whatever the header says. */
    public static synchronized Rebuilt rebuild(String url, String user, String password) {
        String jdbcUrl = JdbcUrls.normalize(url);
        Path file = JdbcUrls.h2DataFile(jdbcUrl).filter(Files::isRegularFile).orElseThrow(() -> new ConfigurationException(
                "db.url must name an existing embedded H2 database file to rebuild, got '" + url + "'"));
        if (OPEN_HERE.containsKey(file)) throw new InUse(file);
        return rebuildUnlessOpen(jdbcUrl, Database.userOrDefault(user, Database.Dialect.H2), password == null ? "" : password, file).orElseThrow(() -> new InUse(file));
    }

    /**
     * True unless the header says the file was left open. The header is the file's first line,
     * {@code H:2,block:..,clean:1,...}; a file whose header this cannot read (an encrypted one) is
     * left to H2.
     */
    static boolean closedCleanly(Path file) {
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the header of " + file, e);
        }
        String header = new String(head, 0, n, StandardCharsets.ISO_8859_1).lines().findFirst().orElse("");
        if (!header.startsWith("H:")) return true;
        return Arrays.asList(header.strip().split(",")).contains("clean:1");
    }

    private static Optional<Rebuilt> rebuildUnlessOpen(String url, String user, String password, Path file) {
        long started = System.nanoTime();
        String name = file.getFileName().toString();
        String base = name.substring(0, name.length() - JdbcUrls.H2_DATA_SUFFIX.length());
        Path script = file.resolveSibling(base + ".rebuild.sql");
        Path rebuilt = file.resolveSibling(base + ".rebuild" + JdbcUrls.H2_DATA_SUFFIX);
        Path kept = file.resolveSibling(base + ".before-rebuild" + JdbcUrls.H2_DATA_SUFFIX);
        try {
            Files.deleteIfExists(script);
            Files.deleteIfExists(rebuilt);
            try (Connection c = DriverManager.getConnection(JdbcUrls.h2Exclusive(url, file), user, password);
                 Statement st = c.createStatement()) {
                st.execute("SCRIPT TO " + sqlString(script));
            } catch (SQLException e) {
                if (e.getErrorCode() == DATABASE_ALREADY_OPEN) return Optional.empty();
                throw e;
            }
            try (Connection c = DriverManager.getConnection(JdbcUrls.h2Exclusive(url, rebuilt), user, password);
                 Statement st = c.createStatement()) {
                st.execute("RUNSCRIPT FROM " + sqlString(script));
            }
            force(rebuilt);
            // A crash from here on leaves either the old file or the rebuilt one in place, both whole.
            Files.copy(file, kept, StandardCopyOption.REPLACE_EXISTING);
            Files.move(rebuilt, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return Optional.of(new Rebuilt(file, kept, Duration.ofNanos(System.nanoTime() - started)));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot rebuild the H2 database " + file + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rebuild the H2 database " + file, e);
        } finally {
            deleteQuietly(script);
            deleteQuietly(rebuilt);   // still there only when the rebuild did not finish
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", path, e.toString());
        }
    }

    private static void force(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    private static String sqlString(Path path) {
        return "'" + path.toString().replace("'", "''") + "'";
    }
}
