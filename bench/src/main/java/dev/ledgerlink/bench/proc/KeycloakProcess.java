package dev.ledgerlink.bench.proc;

import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.secrets.RandomTokens;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Keycloak, the peer of the comparison, in its own process tree: the distribution zip
 * (org.keycloak:keycloak-quarkus-dist) unpacked under the output directory, started with
 * {@code bin/kc.sh start-dev} on 127.0.0.1 and free ports, with a fresh data directory (its dev-file
 * H2 lives in the distribution's data/, emptied before every start) and bootstrap admin credentials
 * made up for the run and handed over in the environment. kc.sh starts a java child (and, after the
 * dev mode's re-augmentation, replaces itself with it); {@link #javaPid()} is the JVM that serves, whose
 * RSS and CPU the load windows sample. Stopping kills the whole tree, also from a shutdown hook when
 * the harness dies first.
 */
public final class KeycloakProcess implements AutoCloseable {
    /** On this busy 2-core machine the first start-dev (a Quarkus re-augmentation) alone took about 40 s. */
    private static final Duration READY_LIMIT = Duration.ofMinutes(10);
    private static final String ENTRY_POINT = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";

    private final Process process;
    private final Thread shutdownHook;
    private final int port;
    private final long javaPid;
    private final double startToReadyMs;
    private final Path log;
    private final String adminUser;
    private final String adminPassword;
    private final String version;

    private KeycloakProcess(Process process, Thread shutdownHook, int port, long javaPid, double startToReadyMs, Path log,
                            String adminUser, String adminPassword, String version) {
        this.process = process;
        this.shutdownHook = shutdownHook;
        this.port = port;
        this.javaPid = javaPid;
        this.startToReadyMs = startToReadyMs;
        this.log = log;
        this.adminUser = adminUser;
        this.adminPassword = adminPassword;
        this.version = version;
    }

    /**
     * Unpacks the zip under {@code workDir} (once: a marker file records a complete unpacking), empties
     * its data directory, starts start-dev with the JDK this harness runs on, and waits until
     * GET /realms/master answers as Keycloak's master realm.
     */
    public static KeycloakProcess start(Path zip, Path workDir, Path logDir) throws IOException, InterruptedException {
        Path home = unpack(zip, workDir);
        deleteTree(home.resolve("data"));
        int port = freePort();
        int managementPort = freePort();
        String adminUser = "bench-admin";
        String adminPassword = RandomTokens.alphanumeric(24);
        List<String> cmd = List.of(home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-host=127.0.0.1", "--http-port=" + port,
                // Off unless health or metrics are enabled; pinned anyway so the default 9000 never collides.
                "--http-management-port=" + managementPort);
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, "keycloak-", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", adminUser);
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
        long t0 = System.nanoTime();
        Process p = pb.start();
        Thread hook = new Thread(() -> killTree(p.toHandle()), "keycloak-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            long deadline = t0 + READY_LIMIT.toNanos();
            while (System.nanoTime() < deadline) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("Keycloak exited with " + p.exitValue() + " before ready; log " + log + ":\n"
                            + ServerProcess.tail(log));
                }
                if (ready(port)) {
                    double ms = (System.nanoTime() - t0) / 1e6;
                    long javaPid = servingJvm(p.toHandle())
                            .orElseThrow(() -> new IllegalStateException("Keycloak answers but no " + ENTRY_POINT + " JVM under pid " + p.pid()));
                    return new KeycloakProcess(p, hook, port, javaPid, ms, log, adminUser, adminPassword, versionOf(home));
                }
                Thread.sleep(1_000);
            }
            throw new IllegalStateException("Keycloak not ready within " + READY_LIMIT + "; log " + log + ":\n" + ServerProcess.tail(log));
        } catch (InterruptedException | RuntimeException e) {
            killTree(p.toHandle());
            Runtime.getRuntime().removeShutdownHook(hook);
            throw e;
        }
    }

    /** The master realm's public description, which only a Keycloak that has finished starting serves. */
    private static boolean ready(int port) {
        try (Http1Connection c = new Http1Connection("127.0.0.1", port)) {
            Http1Connection.Response r = c.get("/realms/master", Map.of("Accept", "application/json"));
            return r.status() == 200 && r.text().contains("\"realm\":\"master\"");
        } catch (IOException e) {
            return false;
        }
    }

    /** The process (kc.sh itself after its exec, or its child) that runs Keycloak's Quarkus entry point. */
    private static Optional<Long> servingJvm(ProcessHandle root) {
        return Stream.concat(Stream.of(root), root.descendants())
                .filter(h -> commandLine(h.pid()).contains(ENTRY_POINT))
                .map(ProcessHandle::pid)
                .findFirst();
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"))).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGTERM to every process of the tree (kc.sh forwards it to java, which shuts down), then SIGKILL after 20 s. */
    private static void killTree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(root);
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception notYet) {
                // still alive (or interrupted): forced below
            }
        }
        all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** Unpacks the distribution once; returns its home (the zip's single top-level directory). */
    static Path unpack(Path zip, Path workDir) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            String top = z.stream().map(ZipEntry::getName).filter(n -> n.endsWith("/bin/kc.sh")).findFirst()
                    .map(n -> n.substring(0, n.indexOf('/')))
                    .orElseThrow(() -> new IOException(zip + " holds no */bin/kc.sh: not a Keycloak distribution"));
            Path home = workDir.resolve(top).toAbsolutePath().normalize();
            Path marker = home.resolve(".unpacked-by-bench");
            if (Files.exists(marker)) return home;
            deleteTree(home);
            for (ZipEntry e : z.stream().toList()) {
                Path target = workDir.resolve(e.getName()).toAbsolutePath().normalize();
                if (!target.startsWith(home)) throw new IOException("zip entry outside " + top + ": " + e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = z.getInputStream(e)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                // java.util.zip drops Unix modes; the launchers are the only files that must be executable.
                if (target.getFileName().toString().endsWith(".sh")) target.toFile().setExecutable(true);
            }
            Files.writeString(marker, zip.toAbsolutePath() + "\n");
            return home;
        }
    }

    private static String versionOf(Path home) {
        try {
            return Files.readString(home.resolve("version.txt")).trim();
        } catch (IOException e) {
            return home.getFileName().toString();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    /**
     * A port free at this moment. Keycloak takes its port on the command line, so another process could
     * take it in between; the readiness probe then fails (it checks for Keycloak's master realm), and the
     * start fails with the log rather than measuring someone else.
     */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() { return port; }
    /** The serving JVM's pid: what RSS and CPU are read from. */
    public long javaPid() { return javaPid; }
    public double startToReadyMs() { return startToReadyMs; }
    public Path log() { return log; }
    public String baseUrl() { return "http://127.0.0.1:" + port; }
    public String adminUser() { return adminUser; }
    public String adminPassword() { return adminPassword; }
    /** The serving JVM's -X options as kc.sh set them (heap, collector), read from its command line. */
    public String jvmOptions() {
        return String.join(" ", java.util.Arrays.stream(commandLine(javaPid).split(" ")).filter(a -> a.startsWith("-X")).toList());
    }

    /** As the distribution's version.txt says it, e.g. "Keycloak - Version 26.7.3". */
    public String version() { return version; }

    @Override
    public void close() {
        killTree(process.toHandle());
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting: the hook runs (and finds nothing left to kill)
        }
    }
}
