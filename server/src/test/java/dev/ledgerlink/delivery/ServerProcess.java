package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.ChildJvm;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real `ledgerlink serve` in a child JVM on the test classpath, stopped with SIGTERM or killed with SIGKILL. */
public final class ServerProcess implements AutoCloseable {
    /** How long a server process may take to start: a cold JVM on a loaded 2-core machine (a hang, not a timing check). */
    static final java.time.Duration START_LIMIT = java.time.Duration.ofMinutes(5);
    private static final java.util.regex.Pattern READY = java.util.regex.Pattern.compile("ledgerlink ready on (http://\\S+)");
    private final Process process;
    private final Path log;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static ServerProcess start(TestDatabases.TestDb db, String secretsKey, Path log, String... settings) {
        return start(db, secretsKey, log, 0, settings);
    }

    /** As {@link #start(TestDatabases.TestDb, String, Path, String...)}, on this API port (a node restarted on its address). */
    public static ServerProcess start(TestDatabases.TestDb db, String secretsKey, Path log, int port, String... settings) {
        return start(ChildJvm.command(List.of("-Xmx256m"), "dev.ledgerlink.cli.Main"), List.of(), db, secretsKey, log, port, settings);
    }

    /**
     * As {@link #start(TestDatabases.TestDb, String, Path, int, String...)}, the server of another build
     * (its jar: the previous release's), with more arguments of serve ({@code --seed FILE}).
     */
    public static ServerProcess startJar(Path jar, List<String> serveArgs, TestDatabases.TestDb db, String secretsKey, Path log, int port,
                                         String... settings) {
        return start(ChildJvm.command(List.of("-Xmx256m"), jar.toString(), "dev.ledgerlink.cli.Main"), serveArgs, db, secretsKey, log, port, settings);
    }

    private static ServerProcess start(List<String> java, List<String> serveArgs, TestDatabases.TestDb db, String secretsKey, Path log, int port,
                                       String... settings) {
        List<String> cmd = new ArrayList<>(java);
        cmd.addAll(List.of("serve", "--port", Integer.toString(port), "--db", db.url(), "--set", "secrets.key=" + secretsKey,
                "--set", "events.operator-key=unused-in-this-test",
                "--set", "dev=true"));   // receivers are on loopback, which only dev mode may call
        if (!db.user().isEmpty()) cmd.addAll(List.of("--set", "db.user=" + db.user()));
        for (String s : TestServer.CHEAP_ARGON2_SETTINGS) cmd.addAll(List.of("--set", s));   // as in-process test servers in dev mode
        for (String s : settings) cmd.addAll(List.of("--set", s));
        cmd.addAll(serveArgs);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new ServerProcess(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits (up to 5 minutes: a cold JVM start on a loaded 2-core machine, beside other processes starting;
     * a hang, not a timing check) for
     * the "ready" line and returns the server's base URL. Give each process its own log file for this:
     * the first ready line in the file is taken.
     */
    public String awaitBaseUrl() throws InterruptedException {
        return awaitInLog(log, START_LIMIT, List.of(this), text -> {
            var m = READY.matcher(text);
            return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
        }, "the server did not get ready within " + START_LIMIT.toMinutes() + " minutes");
    }

    /**
     * Waits (up to 5 minutes each, as {@link #awaitBaseUrl}) until every one of {@code servers}, all writing to
     * {@code log}, has written its ready line: work a test then stores is measured against servers that run.
     */
    public static void awaitAllReady(Path log, ServerProcess... servers) throws InterruptedException {
        awaitReadyLines(log, servers.length, servers);
    }

    /** As {@link #awaitAllReady}, until {@code log} holds {@code lines} ready lines (servers that ran before wrote theirs). */
    public static void awaitReadyLines(Path log, int lines, ServerProcess... servers) throws InterruptedException {
        awaitInLog(log, START_LIMIT.multipliedBy(servers.length), List.of(servers),
                text -> READY.matcher(text).results().count() >= lines ? java.util.Optional.of(true) : java.util.Optional.empty(),
                "fewer than " + lines + " ready lines");
    }

    /**
     * Reads {@code log} every 50 ms until {@code found} finds what it looks for in it; fails, with the log's
     * tail, when one of {@code servers} exits first or {@code limit} passes.
     */
    private static <T> T awaitInLog(Path log, java.time.Duration limit, List<ServerProcess> servers,
                                    java.util.function.Function<String, java.util.Optional<T>> found, String notFound) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            for (ServerProcess s : servers) {
                if (!s.process.isAlive()) throw new AssertionError("a server exited with " + s.process.exitValue() + "; log " + log + ":\n" + tail(log));
            }
            String text;
            try {
                text = java.nio.file.Files.exists(log) ? java.nio.file.Files.readString(log) : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            java.util.Optional<T> value = found.apply(text);
            if (value.isPresent()) return value.get();
            Thread.sleep(50);
        }
        throw new AssertionError(notFound + "; log " + log + ":\n" + tail(log));
    }

    /**
     * A port free at this moment (for a node's fixed address, or its management port), between 20000 and
     * the kernel's ephemeral range (32768 by default). A node binds it seconds or minutes later on a loaded
     * machine, and a port of the ephemeral range may be taken meanwhile as the local end of any outgoing
     * connection (a previous release's node in UpgradeTest once exited 1 on its port).
     */
    public static int freePort() {
        for (int i = 0; i < 500; i++) {
            int port = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(12_000);
            try (java.net.ServerSocket s = new java.net.ServerSocket(port)) {
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new AssertionError("no free port between 20000 and 32000");
    }

    /**
     * SIGTERM, as a supervisor sends it (Process.destroy() did not run the shutdown hooks of a child of
     * the surefire JVM here; kill does).
     */
    public void sigterm() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor();
    }

    /** The exit status, once the process has ended (waits up to 120 s: a hang, not a timing check). */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) throw new AssertionError("the server did not exit within 120 s; log " + log);
        return process.exitValue();
    }

    public Path log() {
        return log;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** kill -9: no shutdown hook runs, nothing is flushed or released. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) return;
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) kill();
    }
}
