package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.TestDatabases;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real `ledgerlink serve` in a child JVM on the test classpath, killable with SIGKILL. */
final class ServerProcess implements AutoCloseable {
    private final Process process;

    private ServerProcess(Process process) {
        this.process = process;
    }

    static ServerProcess start(TestDatabases.TestDb db, String secretsKey, Path log, String... settings) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "dev.ledgerlink.cli.Main", "serve",
                "--port", "0", "--db", db.url(), "--set", "secrets.key=" + secretsKey,
                "--set", "events.operator-key=unused-in-this-test",
                "--set", "dev=true"));   // receivers are on loopback, which only dev mode may call
        if (!db.user().isEmpty()) cmd.addAll(List.of("--set", "db.user=" + db.user()));
        for (String s : settings) cmd.addAll(List.of("--set", s));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new ServerProcess(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** kill -9: no shutdown hook runs, nothing is flushed or released. */
    void kill() throws InterruptedException {
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
