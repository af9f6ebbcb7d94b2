package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What docs/sandbox.md shows for tests outside Java, run as written against this build's image through
 * podman's Docker-compatible socket, on bridge networking: the Node recipe (the testcontainers npm
 * package) and the Python recipe (Debian's Docker SDK), each with a receiver in its own process and one
 * in a sibling container, and the compose file of "Receivers in containers" with its commands (the
 * receiver containers' image is Debian's python3, as no registry serves the python image here).
 */
class SandboxDocsTest {

    @Test
    void theNodeRecipeRunsWithTheTestcontainersPackage() throws Exception {
        PodmanSocket.start();
        Path recipe = Sh.ROOT.resolve("docs/testcontainers-node");
        if (!Files.exists(recipe.resolve("node_modules/testcontainers/package.json"))) {
            Sh.run(Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/ensure-node").toString()).ok();
            Sh.run(Map.of(), recipe, Duration.ofMinutes(10), "npm", "install", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error").ok();
        }
        Sh.Result run = Sh.run(Map.of("DOCKER_HOST", PodmanSocket.dockerHost(), "TESTCONTAINERS_RYUK_DISABLED", "true",
                "LEDGERLINK_IMAGE", ContainerImages.ledgerlink(), "RECEIVER_IMAGE", ContainerImages.receiver()), recipe, Duration.ofMinutes(10),
                "node", "--test", "sandbox.test.mjs");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("# pass 1") && run.out().contains("# fail 0"), run.out());
    }

    @Test
    void thePythonRecipeRunsWithTheDockerSdk() throws Exception {
        PodmanSocket.start();
        String python = Sh.run(Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/ensure-python-docker").toString()).ok().out().trim();
        Sh.Result run = Sh.run(Map.of("DOCKER_HOST", PodmanSocket.dockerHost(), "LEDGERLINK_IMAGE", ContainerImages.ledgerlink(),
                "RECEIVER_IMAGE", ContainerImages.receiver(), "PYTHONDONTWRITEBYTECODE", "1"), Sh.ROOT.resolve("docs/sandbox-python"), Duration.ofMinutes(10),
                python, "-m", "unittest", "-v", "test_sandbox.py");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains("Ran 1 test") && run.err().contains("\nOK"), run.err());
    }

    @Test
    void theComposeFileOfReceiversInContainersRunsAsWritten() throws Exception {
        String doc = Files.readString(Sh.ROOT.resolve("docs/sandbox.md"));
        String section = doc.substring(doc.indexOf("## Receivers in containers"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        String yaml = block(section, "```yaml\n"), commands = block(section, "```bash\n");

        Path dir = Files.createTempDirectory(Sh.TARGET, "compose-docs");
        Files.writeString(dir.resolve("compose.yaml"), yaml);
        Files.createSymbolicLink(dir.resolve("docs"), Sh.ROOT.resolve("docs"));   // the file sits beside docs/, as it says
        String project = Podman.uniqueName("sandbox-compose").replace('-', '_');
        Map<String, String> env = new HashMap<>(Podman.ENV);
        env.put("LEDGERLINK_IMAGE", ContainerImages.ledgerlink());
        env.put("RECEIVER_IMAGE", ContainerImages.receiver());
        env.put("SANDBOX_KEY", Servers.randomKey(24));
        env.put("SANDBOX_PORT", Integer.toString(Sh.freePort()));
        String ledgerlink = project + "_ledgerlink_1", receiver = project + "_receiver_1";
        try {
            Sh.run(env, dir, Duration.ofMinutes(5), "podman-compose", "-p", project, "up", "-d").ok();
            awaitReady(ledgerlink);

            Sh.Result run = Sh.run(env, dir, Duration.ofMinutes(2), "bash", "-euo", "pipefail", "-c", commands);
            assertEquals(0, run.exit(), run.out() + run.err());
            String[] lines = run.out().strip().split("\n", 2);
            assertEquals("200", lines[0], "http://receiver:9000/webhooks registered: " + run.out());
            assertTrue(lines[1].contains("\"errno\":422") && lines[1].contains("and to app, receiver (dev.callback-hosts) in development mode"),
                    "http://db:5432 refused: " + lines[1]);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!Podman.logs(receiver).contains("\"name\": \"callback.verify\"") && System.nanoTime() < deadline) Thread.sleep(200);
            assertTrue(Podman.logs(receiver).contains("\"path\": \"/webhooks\""), "the receiver container got the verification request: "
                    + Podman.logs(receiver));
        } finally {
            // podman-compose 1.0.3's down leaves the anonymous volumes of the image's VOLUME: the containers go first, with theirs.
            Podman.run("ps", "--all", "--quiet", "--filter", "label=io.podman.compose.project=" + project).out().lines()
                    .filter(id -> !id.isBlank()).forEach(Podman::remove);
            Sh.run(env, dir, Duration.ofMinutes(3), "podman-compose", "-p", project, "down", "--volumes", "--timeout", "10");
            Podman.run("network", "rm", "--force", project + "_default");   // podman-compose 1.0.3 leaves it
            Files.delete(dir.resolve("docs"));
            Files.delete(dir.resolve("compose.yaml"));
            Files.delete(dir);
        }
        assertTrue(Podman.ok("ps", "--all", "--format", "{{.Names}}").lines().noneMatch(n -> n.startsWith(project)), "compose down removed the containers");
    }

    /** The first code block of this kind in the section, as written. */
    private static String block(String section, String opening) {
        int start = section.indexOf(opening) + opening.length();
        return section.substring(start, section.indexOf("```", start));
    }

    /** /readyz on the management port, from inside the container (the compose file publishes only the API), as the image's health check asks. */
    private static void awaitReady(String container) throws InterruptedException, IOException {
        String probe = "exec 3<>/dev/tcp/127.0.0.1/9090 && printf 'GET /readyz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3";
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!Podman.run("exec", container, "bash", "-c", probe).out().contains(" 200 ")) {
            if (System.nanoTime() > deadline) throw new AssertionError(container + " not ready within 3 minutes:\n" + Podman.logs(container));
            Thread.sleep(500);
        }
    }
}
