package dev.ledgerlink.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A consistent copy of the embedded database while the server runs, and its way back into an empty
 * data directory (ledgerlink db backup / db restore; docs/operations.md, "Backup and restore"). The copy
 * is H2's own BACKUP TO (a zip of the database file, consistent because it reads one MVCC snapshot and
 * locks nothing), made through the server's process when one holds the file (AUTO_SERVER), with a
 * manifest beside it: when it was taken (what was committed before is in it), the schema, and the
 * fingerprint of the secrets key the restore will need. The key itself is never in a backup.
 */
public final class H2Backup {
    static final String MANIFEST = "ledgerlink-backup.properties";

    private H2Backup() {}

    /** Refused: the database is not an H2 file, the target exists, the backup is not one. The CLI answers it as a conflict. */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** What a backup holds, as its manifest says. {@code keyId} null: no key recorded in the database yet. */
    public record Manifest(Instant takenAt, String schema, String keyId) {}

    /** A backup taken: the file, its manifest, its size and how long it took. */
    public record Taken(Path file, Manifest manifest, long bytes, Duration took) {}

    /** Backs up the H2 file of {@code url} to {@code to}, which must not exist. */
    public static Taken backup(String url, String user, String password, Path to) {
        String jdbcUrl = JdbcUrls.normalize(url);
        h2File(jdbcUrl, "db backup");
        Path target = to.toAbsolutePath().normalize();
        if (Files.exists(target)) throw new Refused(target + " exists already: name a new file (a backup never overwrites one)");
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        long started = System.nanoTime();
        try (Connection c = DriverManager.getConnection(jdbcUrl, Database.userOrDefault(user, Database.Dialect.H2), password == null ? "" : password);
             Statement st = c.createStatement()) {
            Files.deleteIfExists(partial);
            Instant takenAt = Instant.now();   // before BACKUP reads its snapshot: everything committed by now is in it
            String version = one(st, "select version from flyway_schema_history where success order by installed_rank desc");
            Manifest manifest = new Manifest(takenAt, version == null ? null : "V" + version, one(st, "select key_id from secrets_keys where role = 'current'"));
            st.execute("backup to '" + partial.toString().replace("'", "''") + "'");
            writeManifest(partial, manifest);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            return new Taken(target, manifest, Files.size(target), Duration.ofNanos(System.nanoTime() - started));
        } catch (SQLException | IOException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // the partial file stays; the next backup to this name removes it
            }
            throw new IllegalStateException("the backup to " + target + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Puts the database of backup {@code from} where {@code url} names an H2 file, which must not exist
     * yet (an empty data directory). Returns the backup's manifest (no manifest: a plain H2 backup, its
     * time unknown). The file is rebuilt from its committed rows at once (a copy of a file in use, like one
 * a crash left: H2CrashRepair). The caller then opens the database and records the restore
 * ({@link Restores#mark}).
     */
    public static Optional<Manifest> restore(Path from, String url, String user, String password) {
        Path dataFile = h2File(JdbcUrls.normalize(url), "db restore");
        if (Files.exists(dataFile)) {
            throw new Refused(dataFile + " exists: a backup is restored into an empty data directory only (choose another with --data-dir or --db)");
        }
        try (ZipFile zip = new ZipFile(from.toFile())) {
            ZipEntry database = zip.stream().filter(e -> e.getName().endsWith(JdbcUrls.H2_DATA_SUFFIX)).reduce((a, b) -> {
                throw new Refused(from + " holds more than one database file");
            }).orElseThrow(() -> new Refused(from + " holds no H2 database file (*" + JdbcUrls.H2_DATA_SUFFIX + "): not a backup of ledgerlink's"));
            Files.createDirectories(dataFile.getParent());
            Path partial = dataFile.resolveSibling(dataFile.getFileName() + ".restoring");
            try (InputStream in = zip.getInputStream(database)) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(partial, dataFile, StandardCopyOption.ATOMIC_MOVE);
            // The copy is of a file in use (no clean-shutdown mark): rebuilt from its committed rows, as after a crash
            // (H2CrashRepair), here at once rather than at the first open; the copy as it came is in the backup still.
            Files.deleteIfExists(H2CrashRepair.rebuild(url, user, password).keptAs());
            ZipEntry manifest = zip.getEntry(MANIFEST);
            if (manifest == null) return Optional.empty();
            Properties p = new Properties();
            try (InputStream in = zip.getInputStream(manifest)) {
                p.load(in);
            }
            return Optional.of(new Manifest(Instant.parse(p.getProperty("taken_at")), p.getProperty("schema"), p.getProperty("secrets_key_fingerprint")));
        } catch (IOException e) {
            throw new Refused(from + " cannot be read as a backup: " + e.getMessage());
        }
    }

    private static Path h2File(String jdbcUrl, String command) {
        return JdbcUrls.h2DataFile(jdbcUrl).orElseThrow(() -> new Refused(command + " works on the embedded H2 database (a file); a PostgreSQL "
                + "database is backed up and restored with PostgreSQL's tools, then marked with ledgerlink db mark-restored "
                + "(docs/operations.md, \"Backup and restore\")"));
    }

    private static String one(Statement st, String sql) {
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException noSuchTable) {
            return null;   // a database made before the table
        }
    }

    private static void writeManifest(Path zip, Manifest m) throws IOException {
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of())) {
            Properties p = new Properties();
            p.setProperty("format", "1");
            p.setProperty("taken_at", m.takenAt().toString());
            if (m.schema() != null) p.setProperty("schema", m.schema());
            if (m.keyId() != null) p.setProperty("secrets_key_fingerprint", m.keyId());
            try (OutputStream out = Files.newOutputStream(fs.getPath(MANIFEST))) {
                p.store(out, "ledgerlink db backup: the secrets key is not in it; restore needs the key with this fingerprint");
            }
        }
    }
}
