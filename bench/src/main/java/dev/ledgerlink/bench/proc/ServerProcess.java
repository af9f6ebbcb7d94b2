package dev.ledgerlink.bench.proc;

import dev.ledgerlink.bench.http.Http1Connection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server under test in its own JVM: {@code java -jar server/target/ledgerlink.jar serve} (or the
 * same main class from this process's classpath, in the quick test), on a free loopback port, with
 * the JVM options of the ./ledgerlink launcher. Start-to-ready is the time from spawning the process
 * to the first 200 of GET /readyz (on the port the server announces in its ready line).
 */
public final class ServerProcess implements AutoCloseable {
    /**
     * The ./ledgerlink launcher's default JVM options for serve (keep in step with the launcher);
     * LEDGERLINK_JAVA_OPTS overrides both. The class-data-sharing archive sits beside the jar.
     */
    public static final String DEFAULT_JAVA_OPTS = "-XX:+UseSerialGC -Xss512k -Xms32m -Xmx96m"
            + (Runtime.version().feature() >= 22 ? " -XX:TrimNativeHeapInterval=2000" : "");
    /** The launcher's malloc setting (it exports MALLOC_ARENA_MAX=2 unless set). */
    static final String MALLOC_ARENA_MAX = "2";

    /**
     * The launcher's class-data-sharing options, for a server started from the jar (archive beside it).
     * Like the launcher, an archive older than the jar is deleted first: the JVM refuses an archive
     * whose jar has changed (timestamp mismatch) and, unlike a missing one, does not write a new one at
     * exit, so every later start would run without it, slower and larger (docs/benchmarks-history.md,
     * "Without the class-data-sharing archive"). The archive is named after the jar (ledgerlink.jar's is the
     * launcher's ledgerlink-serve.jsa), so that two jars side by side in one directory, as an A/B of two
     * builds has them, do not take each other's (seen: every server of the second jar without it).
     */
    static List<String> cdsOptions(Path jar) {
        String name = jar.getFileName().toString();
        Path archive = jar.toAbsolutePath().resolveSibling(name.replaceFirst("\\.jar$", "") + "-serve.jsa");
        try {
            if (Files.exists(archive) && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) < 0) {
                Files.delete(archive);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove the stale class-data-sharing archive " + archive, e);
        }
        return List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive,
                "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }
    // Generous: a fresh database migrates every version at start, and test machines may be busy.
    private static final Duration READY_LIMIT = Duration.ofMinutes(5);

    /** How to launch: the shaded jar when there is one, else the classpath of this JVM. */
    public record Launch(Path jar, List<String> extraJvmOptions) {
        List<String> command() {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            String given = System.getenv("LEDGERLINK_JAVA_OPTS");
            String opts = given == null ? DEFAULT_JAVA_OPTS : given;
            cmd.addAll(Arrays.stream(opts.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList());
            if (given == null && jar != null) cmd.addAll(cdsOptions(jar));
            cmd.addAll(extraJvmOptions);
            if (jar != null) {
                cmd.add("-jar");
                cmd.add(jar.toString());
            } else {
                cmd.add("-cp");
                cmd.add(System.getProperty("java.class.path"));
                cmd.add("dev.ledgerlink.cli.Main");
            }
            return cmd;
        }
    }

    private final Process process;
    private final int port;
    private final double startToReadyMs;
    private final Path log;

    private ServerProcess(Process process, int port, double startToReadyMs, Path log) {
        this.process = process;
        this.port = port;
        this.startToReadyMs = startToReadyMs;
        this.log = log;
    }

    /**
     * Starts `serve --dev --port 0` over the database with the given settings and waits until /readyz
     * answers 200. The port is read from the server's own ready line: a port chosen here and handed over
     * could be taken by another process in between (other test servers share this machine), and then
     * another server would answer the readiness probe.
     */
    public static ServerProcess start(Launch launch, BenchDatabase db, Map<String, String> settings, Path logDir, boolean dev)
            throws IOException, InterruptedException {
        return start(launch, db, settings, logDir, dev, READY_LIMIT);
    }

    /**
     * As above, waiting up to {@code readyLimit} for ready: a start over a large database that a new
     * migration changes (an index built over millions of rows) may take minutes.
     */
    public static ServerProcess start(Launch launch, BenchDatabase db, Map<String, String> settings, Path logDir, boolean dev,
                                      Duration readyLimit) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(launch.command());
        cmd.add("serve");
        // --dev allows the receiver's http://127.0.0.1 callback URIs; the footprint starts run as in production
        if (dev) cmd.add("--dev");
        cmd.addAll(List.of("--host", "127.0.0.1", "--port", "0", "--db", db.url()));
        if (!db.user().isEmpty()) cmd.addAll(List.of("--set", "db.user=" + db.user()));
        settings.forEach((k, v) -> cmd.addAll(List.of("--set", k + "=" + v)));
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, "server-", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("LEDGERLINK_CONFIG");
        pb.environment().putIfAbsent("MALLOC_ARENA_MAX", MALLOC_ARENA_MAX);
        long t0 = System.nanoTime();
        Process p = pb.start();
        long deadline = t0 + readyLimit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("server exited with " + p.exitValue() + " before ready; log " + log + ":\n" + tail(log));
            }
            int port = announcedPort(log);
            if (port > 0 && ready(port)) {
                double ms = (System.nanoTime() - t0) / 1e6;
                return new ServerProcess(p, port, ms, log);
            }
            Thread.sleep(5);
        }
        p.destroyForcibly();
        throw new IllegalStateException("server not ready within " + readyLimit + "; log " + log + ":\n" + tail(log));
    }

    private static boolean ready(int port) {
        try (Http1Connection c = new Http1Connection("127.0.0.1", port)) {
            return c.get("/readyz", Map.of()).status() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static final Pattern READY_LINE = Pattern.compile("ledgerlink ready on http://127\\.0\\.0\\.1:(\\d+)");

    /** The port of the server's "ledgerlink ready on http://127.0.0.1:PORT" line, or 0 before it is logged. */
    private static int announcedPort(Path log) throws IOException {
        Matcher m = READY_LINE.matcher(Files.readString(log));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable)";
        }
    }

    public int port() { return port; }
    public long pid() { return process.pid(); }
    public double startToReadyMs() { return startToReadyMs; }
    public Path log() { return log; }
    public String baseUrl() { return "http://127.0.0.1:" + port; }

    /**
     * SIGTERM (the server's shutdown hook drains), then a forced kill after 60 s. The server's own
     * stop takes up to shutdown.drain and shutdown.grace (25 s by default) and then closes the
     * database; killed before that, an H2 file counts as left by a crash and the next start rebuilds
     * it (store/H2CrashRepair), which over a large file takes minutes.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
