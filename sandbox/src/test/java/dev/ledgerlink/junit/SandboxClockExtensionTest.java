package dev.ledgerlink.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.client.ApiException;
import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.client.Tokens;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code LedgerlinkSandbox.clock()}: an integration's tests move the sandbox's clock instead of
 * waiting. Retries are an hour apart here, so a retry within the test's wait came from the move.
 */
class SandboxClockExtensionTest {

    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("example-seed.yaml")
            .setting("delivery.retry-schedule", "PT1H,PT1H,PT1H");

    final LedgerlinkClient client = LedgerlinkClient.builder(sandbox.baseUrl(), "invoicesync01", "invoice-sync-test-secret",
            "http://localhost:8000/callback").build();

    @AfterEach
    void backToRealTime() {
        sandbox.clock().reset();
    }

    @Test
    void twelveHoursAndAMinuteLaterTheAccessTokenIsRefusedAndTheRefreshTokenRefreshes() {
        Tokens tokens = sandbox.tokens("ana@example.com", "invoicesync01");
        assertEquals("Ana", client.me(tokens.accessToken()).firstName());

        sandbox.clock().advance(Duration.ofHours(12).plusMinutes(1));
        ApiException refused = assertThrows(ApiException.class, () -> client.me(tokens.accessToken()));
        assertEquals(401, refused.status());
        Tokens refreshed = client.refresh(tokens.refreshToken());
        assertEquals("Ana", client.me(refreshed.accessToken()).firstName());
        assertEquals(Duration.ofMinutes(721), sandbox.clock().read().offset());
    }

    @Test
    void aRetryMadeDueByAnAdvanceArrives() throws Exception {
        String token = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
        AtomicInteger notifications = new AtomicInteger();
        HttpServer app = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        app.createContext("/webhooks", exchange -> {
            Notification n = Notification.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            boolean verification = n.isVerification();
            // the first notification fails: its retry is due an hour later
            exchange.sendResponseHeaders(verification || notifications.incrementAndGet() > 1 ? 200 : 503, -1);
            exchange.close();
            if (verification) client.callbacks(token, "ANA01").verify(n.objectId(), n.verifier());
        });
        app.start();
        try {
            Callback callback = client.callbacks(token, "ANA01").register("invoice.create", "http://127.0.0.1:" + app.getAddress().getPort() + "/webhooks");
            sandbox.awaitDelivery(callback.id(), "callback.verify", Duration.ofSeconds(30));
            // The app verifies after it has answered the handshake: an event published before that
            // finds the callback unverified and is not sent to it (a clean-clone run once lost that race).
            long verifyBy = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!client.callbacks(token, "ANA01").get(callback.id()).verified() && System.nanoTime() < verifyBy) Thread.sleep(20);
            assertTrue(client.callbacks(token, "ANA01").get(callback.id()).verified(), "the app verified its callback");
            long ana = sandbox.userId("ana@example.com");
            sandbox.publish("ANA01", "invoice.create", 7, ana);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (notifications.get() < 1 && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(1, notifications.get(), "the first attempt was made");
            // Its failure is recorded in a batch after the answer, the retry's due time set from the clock then:
            // the clock is moved once it is recorded (moved before, the retry would fall due an hour after the move).
            while (sandbox.deliveries(callback.id()).stream().noneMatch(d -> d.name().equals("invoice.create") && d.attemptCount() == 1)
                    && System.nanoTime() < deadline) Thread.sleep(20);

            sandbox.clock().advance(Duration.ofMinutes(70));   // past the retry: an hour plus up to 10% jitter (retry/Jitter)
            var delivered = sandbox.awaitDelivery(callback.id(), "invoice.create", Duration.ofSeconds(30));
            assertEquals(2, delivered.attempts().size(), "the retry the move made due: " + delivered);
            assertTrue(notifications.get() >= 2);
        } finally {
            app.stop(0);
        }
    }
}
