package dev.ledgerlink.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end (bounded), its output in files so a chatty one cannot block on a full pipe. */
final class Sh {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path TARGET = Path.of("target").toAbsolutePath();

    record Result(List<String> command, int exit, String out, String err) {
        Result ok() {
            if (exit != 0) throw new AssertionError(String.join(" ", command) + " exited with " + exit + "\nstdout: " + out + "\nstderr: " + err);
            return this;
        }
    }

    private Sh() {}

    static Result run(Duration timeout, String... command) {
        return run(Map.of(), null, timeout, command);
    }

    static Result run(Map<String, String> env, Path dir, Duration timeout, String... command) {
        return run(env, true, dir, timeout, command);
    }

    /** With {@code inherit} false the command sees {@code env} alone, none of this JVM's environment. */
    static Result run(Map<String, String> env, boolean inherit, Path dir, Duration timeout, String... command) {
        try {
            Files.createDirectories(TARGET);
            Path out = Files.createTempFile(TARGET, "sh", ".out");
            Path err = Files.createTempFile(TARGET, "sh", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
                if (dir != null) pb.directory(dir.toFile());
                if (!inherit) pb.environment().clear();
                pb.environment().putAll(env);
                Process p = pb.start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not end within " + timeout
                            + "\nstdout: " + Files.readString(out) + "\nstderr: " + Files.readString(err));
                }
                return new Result(List.of(command), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static int freePort() {
        // Between 20000 and the kernel's ephemeral range (32768 by default): a container binds it minutes later on a
        // loaded machine, and a port of that range may be taken meanwhile as the local end of an outgoing connection.
        for (int i = 0; i < 500; i++) {
            int port = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(12_000);
            try (var s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new UncheckedIOException(new IOException("no free port between 20000 and 32000"));
    }
}
