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
            try {
                Servers.awaitReady(manage);
            } catch (AssertionError notReady) {   // say why: the container's state and its log (a clean-clone run once saw no port open for 3 minutes)
                throw new AssertionError(notReady.getMessage() + "\ncontainer: " + Podman.run("inspect", "--format", "{{.State.Status}} exit {{.State.ExitCode}}", name)
                        + "\nlog:\n" + Podman.logs(name), notReady);
            }

            // Not root; the data directory is the volume; the health check passes.
            assertEquals("10001", Podman.ok("exec", name, "id", "-u"));
            assertEquals("ledgerlink", Podman.ok("image", "inspect", "--format", "{{.Config.User}}", image));
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

    private static void stopCleanly(String name) {
        Podman.ok("stop", name);
        assertEquals("0", Podman.ok("inspect", "--format", "{{.State.ExitCode}}", name), "exit status after podman stop: " + Podman.logs(name));
        assertTrue(Podman.logs(name).contains("shutting down"));
    }
}
