package dev.ledgerlink.bench.proc;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the harness's own, in a data directory it keeps (initdb'd on first use), started on
 * a free loopback port for a run and stopped after it. The growth and cost scenarios use it instead of the
 * machine's shared cluster because what they read must be theirs alone and switched on before the server
 * starts: pg_stat_statements and auto_explain are preloaded (statements per operation, the plans the load
 * really ran), pg_stat_wal and pg_stat_database count only this cluster's work, its processes' CPU is found
 * from its postmaster, and autovacuum is on as in production (the machine's CI cluster runs without it).
 * Every other setting is PostgreSQL's default. The binaries are Debian's (scripts/ensure-postgres installs
 * them); when the harness runs as root the cluster runs as the {@code postgres} user, as PostgreSQL requires.
 */
public final class PrivatePostgres implements AutoCloseable {
    /** The settings the cluster runs with beyond PostgreSQL's defaults (also written into results.json). */
    public static final Map<String, String> SETTINGS = settings();

    private static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("shared_preload_libraries", "pg_stat_statements,auto_explain");
        s.put("pg_stat_statements.max", "10000");
        s.put("pg_stat_statements.track", "all");   // statements inside the data-modifying CTEs' functions too
        s.put("track_io_timing", "on");
        s.put("autovacuum", "on");
        // auto_explain stays off (-1) until a phase turns it on for one database (ALTER DATABASE ... SET).
        s.put("auto_explain.log_min_duration", "-1");
        s.put("log_line_prefix", "%m [%p] %d ");
        s.put("max_connections", "200");
        return s;
    }

    private final Path dataDir;
    private final Path bin;
    private final int port;
    private final Path log;

    private PrivatePostgres(Path dataDir, Path bin, int port, Path log) {
        this.dataDir = dataDir;
        this.bin = bin;
        this.port = port;
        this.log = log;
    }

    /** Starts the cluster of {@code dataDir} (created with initdb when it has none) on a free port. */
    public static PrivatePostgres start(Path dataDir) throws IOException, InterruptedException {
        Path bin = binaries();
        Path dir = dataDir.toAbsolutePath();
        Files.createDirectories(dir);
        ownedByServer(dir);
        if (!Files.exists(dir.resolve("PG_VERSION"))) {
            run(List.of(bin.resolve("initdb").toString(), "-D", dir.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C.UTF-8"), "initdb of " + dir);
        }
        Path log = dir.resolve("server.log");
        if (Files.exists(dir.resolve("postmaster.pid"))) {
            // A harness that died left it running (or a stale pid file): stop it, so this start gets our port.
            runQuietly(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.toString(), "-m", "fast", "-w", "stop"));
        }
        int port = freePort();
        List<String> opts = new ArrayList<>(List.of("-p", Integer.toString(port), "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=" + dir));
        SETTINGS.forEach((k, v) -> {
            opts.add("-c");
            opts.add(k + "=" + v);
        });
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.toString(), "-l", log.toString(), "-w", "-t", "120",
                "-o", String.join(" ", opts.stream().map(PrivatePostgres::quoteOption).toList()), "start"), "start of the cluster in " + dir);
        PrivatePostgres pg = new PrivatePostgres(dir, bin, port, log);
        try (Connection c = pg.connect("postgres")) {
            c.createStatement().execute("create extension if not exists pg_stat_statements");
        } catch (SQLException e) {
            throw new IOException("the harness's PostgreSQL on port " + port + " does not answer: " + e.getMessage(), e);
        }
        return pg;
    }

    public int port() { return port; }

    public Path log() { return log; }

    public Path dataDir() { return dataDir; }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), "postgres", "");
    }

    public boolean exists(String database) throws SQLException {
        try (Connection c = connect("postgres");
             var rs = c.createStatement().executeQuery("select 1 from pg_database where datname = '" + database + "'")) {
            return rs.next();
        }
    }

    /** A new, empty database; pg_stat_statements is created in it, so its statements can be read there. */
    public void create(String database) throws SQLException {
        try (Connection c = connect("postgres")) {
            c.createStatement().execute("create database " + database);
        }
        try (Connection c = connect(database)) {
            c.createStatement().execute("create extension if not exists pg_stat_statements");
        }
    }

    public void drop(String database) throws SQLException {
        try (Connection c = connect("postgres")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
    }

    /** CPU seconds used so far by this cluster's processes: the postmaster, its live children and those that ended. */
    public double cpuSeconds() {
        long postmaster = postmasterPid();
        if (postmaster <= 0) return -1;
        double sum = Math.max(0, ProcStats.cpuSecondsWithEndedChildren(postmaster));
        for (long child : ProcStats.children(postmaster)) sum += Math.max(0, ProcStats.cpuSeconds(child));
        return sum;
    }

    long postmasterPid() {
        try {
            return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).getFirst().trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Stops the cluster (fast shutdown: sessions are ended, nothing committed is lost). */
    @Override
    public void close() {
        try {
            runQuietly(List.of(bin.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-m", "fast", "-w", "stop"));
        } catch (IOException | InterruptedException e) {
            System.err.println("bench: could not stop the PostgreSQL of " + dataDir + ": " + e.getMessage());
        }
    }

    /** The newest Debian PostgreSQL's binaries ({@code /usr/lib/postgresql/<version>/bin}), or PG_BIN when set. */
    static Path binaries() throws IOException {
        String given = System.getenv("LEDGERLINK_BENCH_PG_BIN");
        if (given != null && !given.isBlank()) return Path.of(given);
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            throw new IOException("no PostgreSQL binaries under " + root + " (scripts/ensure-postgres installs them; LEDGERLINK_BENCH_PG_BIN names others)");
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.filter(p -> Files.isExecutable(p.resolve("bin/initdb")))
                    .max(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replaceAll("\\D.*", "0"))))
                    .map(p -> p.resolve("bin"))
                    .orElseThrow(() -> new IOException("no initdb under " + root));
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** As root, the data directory belongs to the postgres user that runs the cluster (its parents stay as they are). */
    private static void ownedByServer(Path dir) throws IOException, InterruptedException {
        if (!root()) return;
        run(List.of("chown", "postgres:postgres", dir.toString()), "chown of " + dir);
        run(List.of("chmod", "700", dir.toString()), "chmod of " + dir);
    }

    private static List<String> asServerUser(List<String> cmd) {
        if (!root()) return cmd;
        List<String> out = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        out.addAll(cmd);
        return out;
    }

    private static String quoteOption(String s) {
        return s.contains(" ") || s.contains(",") ? "'" + s + "'" : s;
    }

    private static void run(List<String> cmd, String what) throws IOException, InterruptedException {
        boolean ours = cmd.getFirst().equals("chown") || cmd.getFirst().equals("chmod");
        Process p = new ProcessBuilder(ours ? cmd : asServerUser(cmd)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException(what + " failed: " + out);
    }

    private static void runQuietly(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(asServerUser(cmd)).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(120, TimeUnit.SECONDS);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
