package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.CallbacksClient;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.client.Tokens;
import dev.ledgerlink.testcontainers.LedgerlinkContainer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The testcontainers module's LedgerlinkContainer against this build's image, through podman's
 * Docker-compatible socket (PodmanSocket); and the Node recipe of docs/sandbox.md, which does the same
 * with the testcontainers npm package.
 */
class LedgerlinkContainerTest {

    @Test
    void aContainerWithASeedGivesTokensAndDeliversToTheTestsReceiver() throws Exception {
        PodmanSocket.start();
        try (LedgerlinkContainer ledgerlink = new LedgerlinkContainer(ContainerImages.ledgerlink())
                .withSeed(Sh.ROOT.resolve("docs/sandbox-seed.yaml"))
                .withSetting("delivery.retry-schedule", "PT1S,PT1S");
             Receiver receiver = Receiver.start()) {
            ledgerlink.start();
            assertEquals("PT1S,PT1S", ledgerlink.getEnvMap().get("LEDGERLINK_DELIVERY_RETRY_SCHEDULE"));
            assertTrue(ledgerlink.ledgerlink("--version").contains("(commit " + ContainerImages.commit()));

            Tokens tokens = ledgerlink.issueToken("dev@example.com", "sandboxapp01");
            LedgerlinkClient client = Servers.sandboxClient(ledgerlink.baseUrl());
            assertEquals("Dana", client.me(tokens.accessToken()).firstName());
            assertEquals("Dana", client.me(client.refresh(tokens.refreshToken()).accessToken()).firstName(), "the issued refresh token works");

            CallbacksClient callbacks = client.callbacks(tokens.accessToken(), "SBX01");
            Callback callback = callbacks.register("invoice.create", receiver.url("/tc"));
            String code = receiver.next("callback.verify", Duration.ofSeconds(60)).notification().verifier();
            callbacks.verify(callback.id(), code);
            assertEquals(202, Servers.publish(ledgerlink.baseUrl(), ledgerlink.operatorKey(), "SBX01", "invoice.create", 7).statusCode());
            Receiver.Received delivered = receiver.next("invoice.create", Duration.ofSeconds(60));
            assertEquals(7, delivered.notification().objectId());
            assertTrue(Notification.isAuthentic(code, delivered.body(), delivered.signature()));
        }
    }

    @Test
    void theNodeRecipeRunsWithTheTestcontainersPackage() throws Exception {
        PodmanSocket.start();
        String image = ContainerImages.ledgerlink();
        var recipe = Sh.ROOT.resolve("docs/testcontainers-node");
        if (!java.nio.file.Files.exists(recipe.resolve("node_modules/testcontainers/package.json"))) {
            Sh.run(Duration.ofMinutes(10), Sh.ROOT.resolve("scripts/ensure-node").toString()).ok();
            Sh.run(Map.of(), recipe, Duration.ofMinutes(10), "npm", "install", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error").ok();
        }
        Sh.Result run = Sh.run(Map.of("DOCKER_HOST", PodmanSocket.dockerHost(), "TESTCONTAINERS_RYUK_DISABLED", "true", "LEDGERLINK_IMAGE", image),
                recipe, Duration.ofMinutes(5), "node", "--test", "sandbox.test.mjs");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("# pass 1") && run.out().contains("# fail 0"), run.out());
    }
}
