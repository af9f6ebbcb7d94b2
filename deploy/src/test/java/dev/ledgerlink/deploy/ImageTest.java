package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.CallbacksClient;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The image of deploy/Containerfile, run with podman as the operator would: development mode with
 * a seed file mounted, a token issued with podman exec, the data volume surviving a restart, SIGTERM
 * (podman stop) ending the server cleanly, and an event acknowledged just before a stop delivered after
 * the next start. Host network: the receiver is this JVM, on the host's loopback.
 */
class ImageTest {

    @Test
    void theImageServesKeepsItsDataAndDeliversWhatItAcknowledgedBeforeAStop() throws Exception {
        String image = ContainerImages.ledgerlink();
        String name = Podman.uniqueName("image");
        String volume = name + "-data";
        int api = Sh.freePort(), management = Sh.freePort();
        String base = "http://127.0.0.1:" + api, manage = "http://127.0.0.1:" + management;
        try (Receiver receiver = Receiver.start()) {
            Podman.ok("run", "--detach", "--name", name, "--network", "host", "--volume", volume + ":/var/lib/ledgerlink",
                    "--volume", Sh.ROOT.resolve("docs/sandbox-seed.yaml") + ":/etc/ledgerlink/seed.yaml:ro",
                    "--env", "LEDGERLINK_HTTP_PORT=" + api, "--env", "LEDGERLINK_MANAGEMENT_PORT=" + management,
                    "--env", "LEDGERLINK_DELIVERY_RETRY_SCHEDULE=PT2S,PT2S,PT2S,PT2S,PT2S,PT2S",
                    image, "serve", "--dev", "--seed", "/etc/ledgerlink/seed.yaml");
            awaitReady(name, manage);

            // Not root; the data directory is the volume; the health check passes.
            assertEquals("10001", Podman.ok("exec", name, "id", "-u"));
            assertEquals("10001:10001", Podman.ok("image", "inspect", "--format", "{{.Config.User}}", image), "a numeric user");
            assertEquals(ContainerImages.version(), label(image, "org.opencontainers.image.version"));
            assertTrue(label(image, "org.opencontainers.image.revision").startsWith(ContainerImages.commit()));
            assertEquals("Apache-2.0", label(image, "org.opencontainers.image.licenses"));
            Podman.ok("exec", name, "test", "-s", "/opt/ledgerlink/LICENSE", "-a", "-s", "/opt/ledgerlink/NOTICE", "-a", "-s", "/opt/ledgerlink/sbom.cdx.json");
            assertTrue(Podman.ok("image", "inspect", "--format", "{{json .Config.ExposedPorts}}", image).contains("9090/tcp"));
            assertEquals(0, Podman.run("healthcheck", "run", name).exit(), "the image's health check");
            assertTrue(Podman.ok("exec", name, "ls", "/var/lib/ledgerlink").contains("ledgerlink.mv.db"));
            assertTrue(Podman.ok("exec", name, "ledgerlink", "--version").contains("(commit " + ContainerImages.commit()));

            // A token without a browser, through podman exec, and a verified callback to this JVM.
            String token = Servers.json(Podman.ok("exec", name, "ledgerlink", "tokens", "issue", "--user", Servers.SANDBOX_USER,
                    "--app", Servers.SANDBOX_APP, "--json")).path("access_token").asText();
            LedgerlinkClient client = Servers.sandboxClient(base);
            assertEquals("Dana", client.me(token).firstName());
            CallbacksClient callbacks = client.callbacks(token, "SBX01");
            Callback callback = callbacks.register("invoice.create", receiver.url("/hooks/1"));
            String code = receiver.next("callback.verify", Duration.ofSeconds(60)).notification().verifier();
            assertTrue(callbacks.verify(callback.id(), code).verified());
            String operatorKey = Podman.ok("exec", name, "cat", "/var/lib/ledgerlink/operator-key");

            // SIGTERM as PID 1 ends the server cleanly: exit 0 (not podman's SIGKILL after 10 s, 137), the H2 file closed.
            stopCleanly(name);
            Podman.ok("start", name);
            Servers.awaitReady(manage);
            assertFalse(Podman.logs(name).contains("was not closed cleanly"), "the H2 file was closed by the stop");
            assertEquals("Dana", client.me(token).firstName(), "the token survived the restart");
            assertTrue(callbacks.get(callback.id()).verified(), "the callback survived the restart");
            assertEquals(operatorKey, Podman.ok("exec", name, "cat", "/var/lib/ledgerlink/operator-key"));

            // An event acknowledged while the receiver is away, then the container stopped at once: after the
            // next start (and the receiver back), it is delivered, signed with the callback's code.
            receiver.shut();
            assertEquals(202, Servers.publish(base, operatorKey, "SBX01", "invoice.create", 4242).statusCode());
            stopCleanly(name);
            receiver.open();
            Podman.ok("start", name);
            Receiver.Received delivered = receiver.next("invoice.create", Duration.ofMinutes(2));
            assertEquals(4242, delivered.notification().objectId());
            assertEquals("/hooks/1", delivered.path());
            assertTrue(Notification.isAuthentic(code, delivered.body(), delivered.signature()), "signed with the callback's code");
        } finally {
            Podman.remove(name);
            Podman.run("volume", "rm", "--force", volume);
        }
    }

    @Test
    void anArbitraryUserInGroupZeroRunsItOnAReadOnlyRootWithAHeapThatFollowsTheMemoryLimit() throws Exception {
        String image = ContainerImages.ledgerlink();
        String name = Podman.uniqueName("image-user");
        String volume = name + "-data";
        int api = Sh.freePort(), management = Sh.freePort();
        try {
            // OpenShift's way: a user id the image does not know, group 0; the root file system read-only, /tmp a tmpfs.
            Podman.ok("run", "--detach", "--name", name, "--network", "host", "--user", "12345:0", "--read-only", "--tmpfs", "/tmp",
                    "--memory", "512m", "--volume", volume + ":/var/lib/ledgerlink",
                    "--env", "LEDGERLINK_HTTP_PORT=" + api, "--env", "LEDGERLINK_MANAGEMENT_PORT=" + management,
                    "--env", "LEDGERLINK_JAVA_OPTS_APPEND=-XX:+PrintFlagsFinal", image, "serve", "--dev");
            awaitReady(name, "http://127.0.0.1:" + management);
            assertEquals("12345 0", Podman.ok("exec", name, "sh", "-c", "echo $(id -u) $(id -g)"));
            // (The commands run without the server's flag printing.)
            String app = Servers.json(Podman.ok("exec", "--env", "LEDGERLINK_JAVA_OPTS_APPEND=", name, "ledgerlink", "apps", "create", "--name", "Sync", "--redirect-uri",
                    "https://sync.example.com/callback", "--scope", "user:profile:read", "--json")).path("client_id").asText();
            String token = Servers.json(Podman.ok("exec", "--env", "LEDGERLINK_JAVA_OPTS_APPEND=", name, "ledgerlink", "tokens", "issue",
                    "--user", "demo@ledgerlink.test", "--app", app, "--json")).path("access_token").asText();
            assertFalse(token.isEmpty(), "a token issued, written to the H2 file in the volume");
            // The JVM's own flags: half of the 512 MiB limit (the launcher dropped lib/jvm.options' -Xmx), and out of memory it exits.
            String log = Podman.logs(name);
            assertEquals(256L << 20, flag(log, "MaxHeapSize"), "the heap follows the container's memory limit");
            assertEquals("true", flagText(log, "ExitOnOutOfMemoryError"));
        } finally {
            Podman.remove(name);
            Podman.run("volume", "rm", "--force", volume);
        }
        // Without a limit: the launcher's 96 MiB, as outside a container.
        String flags = Podman.ok("run", "--rm", "--env", "LEDGERLINK_JAVA_OPTS_APPEND=-XX:+PrintFlagsFinal", image, "--version");
        assertEquals(96L << 20, flag(flags, "MaxHeapSize"));
    }

    /** Ready, or a failure that says why: the container's state and its log (a clean-clone run once saw no port open for 3 minutes). */
    private static void awaitReady(String container, String managementUrl) throws InterruptedException {
        try {
            Servers.awaitReady(managementUrl);
        } catch (AssertionError notReady) {
            throw new AssertionError(notReady.getMessage() + "\ncontainer: " + Podman.run("inspect", "--format", "{{.State.Status}} exit {{.State.ExitCode}}",
                    container) + "\nlog:\n" + Podman.logs(container), notReady);
        }
    }

    private static String label(String image, String key) {
        return Podman.ok("image", "inspect", "--format", "{{ index .Config.Labels \"" + key + "\" }}", image);
    }

    /** A value of -XX:+PrintFlagsFinal's table ("   size_t MaxHeapSize = 268435456   {product} {ergonomic}"). */
    private static String flagText(String printed, String flag) {
        return printed.lines().map(String::trim).filter(l -> l.matches("\\S+ +" + flag + " +:?= .*")).findFirst()
                .map(l -> l.split(" +")[3]).orElseThrow(() -> new AssertionError("no " + flag + " in:\n" + printed));
    }

    private static long flag(String printed, String flag) {
        return Long.parseLong(flagText(printed, flag));
    }

    private static void stopCleanly(String name) {
        Podman.ok("stop", name);
        assertEquals("0", Podman.ok("inspect", "--format", "{{.State.ExitCode}}", name), "exit status after podman stop: " + Podman.logs(name));
        assertTrue(Podman.logs(name).contains("shutting down"));
    }
}
