package dev.ledgerlink.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * podman's Docker-compatible API on a socket of this run (`podman system service`), for Testcontainers:
 * the surefire configuration points DOCKER_HOST at it and turns Ryuk off (its image comes from a registry
 * these machines do not reach; each test stops its own containers). Started once, stopped when the JVM exits.
 */
final class PodmanSocket {
    static final Path SOCKET = Sh.TARGET.resolve("podman.sock");
    private static Process service;

    private PodmanSocket() {}

    static synchronized void start() throws InterruptedException {
        if (service != null) return;
        ContainerImages.base();   // podman installed
        try {
            Files.deleteIfExists(SOCKET);
            ProcessBuilder pb = new ProcessBuilder("podman", "system", "service", "--time=0", "unix://" + SOCKET)
                    .redirectErrorStream(true).redirectOutput(Sh.TARGET.resolve("podman-service.log").toFile());
            pb.environment().putAll(Podman.ENV);
            service = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process started = service;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            started.destroy();
            try {
                started.waitFor();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "podman-service-stop"));
        for (int i = 0; i < 600 && !Files.exists(SOCKET); i++) Thread.sleep(100);
        if (!Files.exists(SOCKET)) throw new AssertionError("podman system service made no socket at " + SOCKET + " within 60 s");
    }

    static String dockerHost() {
        return "unix://" + SOCKET;
    }
}
