package dev.ledgerlink.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own (its own data directory under /tmp and its own port), for
 * tests that stop and start the database: the shared server at 127.0.0.1:5432 is never touched.
 * Uses the machine's PostgreSQL binaries (/usr/lib/postgresql/N/bin, installed by
 * scripts/ensure-postgres when missing); run as the postgres user when the tests run as root,
 * since initdb refuses root.
 */
public final class PostgresCluster implements AutoCloseable {
    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgresUser;

    private PostgresCluster(Path bin, Path dir, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** initdb a fresh cluster and start it; the database "postgres", user postgres, trust authentication. */
    public static PostgresCluster start() throws IOException {
        return start(Files.createTempDirectory("ledgerlink-pg-"), List.of());
    }

    /**
     * The same in {@code dir} (an empty directory: a small file system of the test's own, say), with
     * extra initdb options ({@code --wal-segsize=1} keeps the write-ahead log small there).
     */
    public static PostgresCluster start(Path dir, List<String> initdbOptions) throws IOException {
        Path bin = binaries();
        boolean root = "root".equals(System.getProperty("user.name"));
        PostgresCluster cluster = new PostgresCluster(bin, dir, freePort(), root);
        if (root) run(List.of("chown", "postgres", dir.toString()));
        List<String> initdb = new ArrayList<>(List.of("-D", cluster.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"));
        initdb.addAll(initdbOptions);
        cluster.pg("initdb", initdb.toArray(String[]::new));
        cluster.startAgain();
        return cluster;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public TestDatabases.TestDb db() {
        return new TestDatabases.TestDb(jdbcUrl(), "postgres", "");
    }

    /** Stops the server at once (connections are cut, as when a database host goes away), waiting until it is down. */
    public void stop() throws IOException {
        pg("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
    }

    public void startAgain() throws IOException {
        pg("pg_ctl", "-D", data(), "-l", log().toString(), "-w", "-t", "60", "-o", serverOptions(), "start");
    }

    /**
     * {@code pg_ctl restart -m fast}, as an operator restarts PostgreSQL: open transactions are rolled
     * back, every connection is closed, and the server comes back; returns once it accepts connections.
     */
    public void restart() throws IOException {
        pg("pg_ctl", "-D", data(), "-l", log().toString(), "-m", "fast", "-w", "-t", "60", "-o", serverOptions(), "restart");
    }

    /** The server's own log (what PostgreSQL says about a restart or a full disk). */
    public Path log() {
        return dir.resolve("server.log");
    }

    private String serverOptions() {
        return "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1";
    }

    @Override
    public void close() throws IOException {
        try {
            pg("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
        } catch (IOException alreadyStopped) {
            // a test that failed between stop and start leaves it stopped
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private void pg(String program, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (asPostgresUser) command.addAll(List.of("runuser", "-u", "postgres", "--"));
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) throws IOException {
        Commands.run(command);
    }

    /** The directory of the machine's newest PostgreSQL programs (pg_dump, pg_restore, pg_ctl, ...). */
    public static Path binaries() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            throw new IOException("no PostgreSQL binaries under " + root + "; scripts/test installs them (scripts/ensure-postgres)");
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(PostgresCluster::majorVersion))
                    .orElseThrow(() -> new IOException("no pg_ctl under " + root + "/*/bin"));
        }
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
