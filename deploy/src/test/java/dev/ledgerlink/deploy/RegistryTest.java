package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release's way out, end to end on this machine: Debian's docker-registry on a loopback port, this build's
 * image pushed to it by `scripts/release --push`, pulled back by tag into a podman storage of the test's own
 * (empty, so every layer comes from the registry) and run from there (development mode, /readyz, a token
 * issued); its labels; and the SHA256SUMS of the archive and the bill of materials with its signature,
 * made by scripts/checksums with a throwaway key, verified with the public key alone.
 */
class RegistryTest {
    @TempDir
    Path dir;

    @Test
    void anImagePushedByTagIsPulledBackIntoAnEmptyStorageAndRuns() throws Exception {
        String image = ContainerImages.ledgerlink();
        Sh.run(Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/ensure-podman").toString()).ok();   // docker-registry too
        int port = Sh.freePort();
        String registry = "127.0.0.1:" + port;
        Files.writeString(dir.resolve("registry.yml"), """
                version: 0.1
                log: {level: warn}
                storage: {filesystem: {rootdirectory: %s}}
                http: {addr: "%s"}
                """.formatted(dir.resolve("registry"), registry));
        // The registry speaks plain HTTP on loopback: podman is told so for this one address, in a file of the test's.
        Files.writeString(dir.resolve("registries.conf"), """
                [[registry]]
                location = "%s"
                insecure = true
                """.formatted(registry));
        Map<String, String> env = new HashMap<>(Podman.ENV);
        env.put("CONTAINERS_REGISTRIES_CONF", dir.resolve("registries.conf").toString());
        Process served = new ProcessBuilder("docker-registry", "serve", dir.resolve("registry.yml").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("registry.log").toFile()).start();
        // Pulled back into storage of its own: a root, a run root and the container's data volume, none in podman's usual.
        String[] own = {"podman", "--root", dir.resolve("storage").toString(), "--runroot", dir.resolve("run").toString()};
        String name = Podman.uniqueName("pulled");
        try {
            awaitPort(port, served, dir.resolve("registry.log"));
            Sh.run(env, Sh.ROOT, Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/release").toString(), "--push", registry,
                    ContainerImages.archive().toString()).ok();
            var tags = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + registry + "/v2/ledgerlink/tags/list")).build(),
                    HttpResponse.BodyHandlers.ofString());
            List<String> pushed = new ArrayList<>();
            Servers.json(tags.body()).path("tags").forEach(t -> pushed.add(t.asText()));
            List<String> expected = Sh.run(Duration.ofMinutes(1), Sh.ROOT.resolve("scripts/image").toString(), "--tags",
                    ContainerImages.archive().toString()).ok().out().lines().map(n -> n.substring(n.lastIndexOf(':') + 1)).sorted().toList();
            assertEquals(expected, pushed.stream().sorted().toList(), "every tag of the image is in the registry");

            String remote = registry + "/ledgerlink:" + ContainerImages.version();
            assertTrue(run(env, own, "images", "--quiet").out().isBlank(), "the test's storage starts empty");
            run(env, own, "pull", "--quiet", remote).ok();
            assertEquals(ContainerImages.version(), run(env, own, "image", "inspect", "--format",
                    "{{ index .Config.Labels \"org.opencontainers.image.version\" }}", remote).ok().out().trim());
            for (String label : List.of("revision", "source", "created", "licenses", "title", "description", "base.name")) {
                String value = run(env, own, "image", "inspect", "--format", "{{ index .Config.Labels \"org.opencontainers.image." + label + "\" }}", remote)
                        .ok().out().trim();
                assertFalse(value.isEmpty() || value.equals("<no value>"), "label org.opencontainers.image." + label);
            }
            assertTrue(run(env, own, "image", "inspect", "--format", "{{ index .Config.Labels \"org.opencontainers.image.revision\" }}", remote)
                    .ok().out().trim().startsWith(ContainerImages.commit()));

            int api = Sh.freePort(), management = Sh.freePort();
            run(env, own, "run", "--detach", "--name", name, "--network", "host", "--env", "LEDGERLINK_HTTP_PORT=" + api,
                    "--env", "LEDGERLINK_MANAGEMENT_PORT=" + management, remote, "serve", "--dev").ok();
            try {
                Servers.awaitReady("http://127.0.0.1:" + management);
            } catch (AssertionError notReady) {
                throw new AssertionError(notReady.getMessage() + "\nlog:\n" + run(env, own, "logs", name).err(), notReady);
            }
            String app = Servers.json(run(env, own, "exec", name, "ledgerlink", "apps", "create", "--name", "Pulled", "--redirect-uri",
                    "https://pulled.example.com/callback", "--scope", "user:profile:read", "--json").ok().out()).path("client_id").asText();
            String token = Servers.json(run(env, own, "exec", name, "ledgerlink", "tokens", "issue", "--user", "demo@ledgerlink.test",
                    "--app", app, "--json").ok().out()).path("access_token").asText();
            assertEquals(200, Servers.get("http://127.0.0.1:" + api + "/auth/api/v1/users/me", token).statusCode(), "the token works at the API");
        } finally {
            run(env, own, "rm", "--force", "--volumes", "--time", "5", name);
            run(env, own, "rmi", "--force", registry + "/ledgerlink:" + ContainerImages.version());
            served.destroy();
            Sh.run(Duration.ofMinutes(2), "rm", "-rf", dir.resolve("storage").toString(), dir.resolve("run").toString());
        }
    }

    @Test
    void theChecksumsAndTheirSignatureVerifyWithThePublicKeyAlone() throws Exception {
        Path files = Files.createDirectories(dir.resolve("dist")), keys = dir.resolve("gnupg"), verifier = dir.resolve("gnupg-verify");
        Path archive = ContainerImages.archive(), sbom = Sh.ROOT.resolve("server/target/ledgerlink.cdx.json");
        try {
            Files.createLink(files.resolve(archive.getFileName()), archive);
        } catch (IOException otherFileSystem) {
            Files.copy(archive, files.resolve(archive.getFileName()));
        }
        Files.copy(sbom, files.resolve("ledgerlink.cdx.json"));
        String key = Sh.run(Duration.ofMinutes(2), Sh.ROOT.resolve("scripts/gpg-key").toString(), "new", keys.toString()).ok().out().trim();
        try {
            Sh.run(Map.of("GNUPGHOME", keys.toString(), "LEDGERLINK_GPG_KEYNAME", key), null, Duration.ofMinutes(2),
                    Sh.ROOT.resolve("scripts/checksums").toString(), files.toString(), archive.getFileName().toString(), "ledgerlink.cdx.json").ok();
            assertEquals(2, Files.readAllLines(files.resolve("SHA256SUMS")).size());
            Sh.run(Map.of(), files, Duration.ofMinutes(2), "sha256sum", "--check", "--strict", "SHA256SUMS").ok();

            Files.createDirectories(verifier);
            Sh.run(Duration.ofMinutes(1), "chmod", "700", verifier.toString()).ok();
            Sh.run(Duration.ofMinutes(1), "gpg", "--homedir", keys.toString(), "--batch", "--armor", "--output", dir.resolve("public.asc").toString(),
                    "--export", key).ok();
            Sh.run(Duration.ofMinutes(1), "gpg", "--homedir", verifier.toString(), "--batch", "--import", dir.resolve("public.asc").toString()).ok();
            Sh.run(Duration.ofMinutes(1), "gpg", "--homedir", verifier.toString(), "--batch", "--verify",
                    files.resolve("SHA256SUMS.asc").toString(), files.resolve("SHA256SUMS").toString()).ok();

            // A file changed after the sums were made fails the check, and changed sums fail the signature.
            Files.writeString(files.resolve("ledgerlink.cdx.json"), "{}");
            assertNotEquals(0, Sh.run(Map.of(), files, Duration.ofMinutes(2), "sha256sum", "--check", "--strict", "SHA256SUMS").exit());
            String sums = Files.readString(files.resolve("SHA256SUMS"));
            Files.writeString(files.resolve("SHA256SUMS"), (sums.charAt(0) == '0' ? "1" : "0") + sums.substring(1));   // a digit that differs
            assertNotEquals(0, Sh.run(Duration.ofMinutes(1), "gpg", "--homedir", verifier.toString(), "--batch", "--verify",
                    files.resolve("SHA256SUMS.asc").toString(), files.resolve("SHA256SUMS").toString()).exit());
        } finally {
            Sh.run(Duration.ofMinutes(1), Sh.ROOT.resolve("scripts/gpg-key").toString(), "stop", keys.toString());
            Sh.run(Duration.ofMinutes(1), "gpgconf", "--homedir", verifier.toString(), "--kill", "gpg-agent");
        }
    }

    private static Sh.Result run(Map<String, String> env, String[] podman, String... args) {
        String[] command = new String[podman.length + args.length];
        System.arraycopy(podman, 0, command, 0, podman.length);
        System.arraycopy(args, 0, command, podman.length, args.length);
        return Sh.run(env, null, Duration.ofMinutes(5), command);
    }

    private static void awaitPort(int port, Process served, Path log) throws Exception {
        for (int i = 0; i < 300; i++) {
            if (!served.isAlive()) throw new AssertionError("docker-registry exited: " + Files.readString(log));
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("docker-registry did not listen on " + port + " within 30 s: " + Files.readString(log));
    }
}
