package dev.ledgerlink.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.client.sandbox.Delivery;
import dev.ledgerlink.client.sandbox.TestDelivery;
import dev.ledgerlink.client.sandbox.TestEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The extension's test deliveries and reset (docs/sandbox.md): an app that checks signatures refuses
 * a tampered notification and receives events in the order asked for; reset() brings the sandbox
 * back to its seed without a restart.
 */
class TestDeliveriesAndResetTest {
    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("example-seed.yaml");

    LedgerlinkClient client;
    ExampleAppTest.InvoiceSyncApp app;
    String token;

    @BeforeEach
    void connect() throws Exception {
        client = LedgerlinkClient.builder(sandbox.baseUrl(), "invoicesync01", "invoice-sync-test-secret", "http://localhost:8000/callback").build();
        token = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
        app = new ExampleAppTest.InvoiceSyncApp(client, token, "ANA01");
    }

    @AfterEach
    void stop() {
        app.close();
    }

    private long ana() {
        return sandbox.userId("ana@example.com");
    }

    @Test
    void theAppRefusesATamperedNotificationAndGetsReversedOnesInOrder() throws Exception {
        Callback callback = client.callbacks(token, "ANA01").register("invoice", app.uri());
        assertTrue(app.verified.await(30, TimeUnit.SECONDS));

        sandbox.publish("ANA01", "invoice.create", 1, ana(), TestDelivery.PLAIN.withSignature(TestDelivery.Signature.TAMPERED));
        Delivery refused = null;
        for (int i = 0; i < 300 && refused == null; i++) {
            refused = sandbox.deliveries(callback.id()).stream().filter(d -> d.test() != null && !d.attempts().isEmpty()).findFirst().orElse(null);
            if (refused == null) Thread.sleep(100);
        }
        assertNotNull(refused, "the tampered delivery was attempted");
        assertEquals(401, refused.attempts().get(0).statusCode(), "the app refused the forged signature");
        assertTrue(app.notifications.isEmpty());

        sandbox.publish("ANA01", List.of(new TestEvent("invoice.create", 10, ana()), new TestEvent("invoice.update", 20, ana())),
                TestDelivery.PLAIN.withOrder(TestDelivery.Order.REVERSED));
        Notification first = app.notifications.poll(30, TimeUnit.SECONDS);
        Notification second = app.notifications.poll(30, TimeUnit.SECONDS);
        assertNotNull(second);
        assertEquals(List.of(20L, 10L), List.of(first.objectId(), second.objectId()));
    }

    @Test
    void resetBringsTheSandboxBackToItsSeed() throws Exception {
        client.callbacks(token, "ANA01").register("invoice", app.uri());
        assertTrue(app.verified.await(30, TimeUnit.SECONDS));
        sandbox.clock().advance(Duration.ofDays(1));
        sandbox.faults().on("identity").status(503, 1).add();

        var result = sandbox.reset();
        assertEquals(List.of("example-seed.yaml"), result.seeds());
        assertTrue(result.created().contains("users[0] ana@example.com"), result.toString());
        assertEquals(Duration.ZERO, sandbox.clock().read().offset(), "the clock is back at real time");
        assertTrue(sandbox.faults().list().isEmpty(), "the fault rules are gone");
        String fresh = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
        assertEquals(0, client.callbacks(fresh, "ANA01").list(1, 10, null, null, null).total(), "the callback registered before is gone");
        assertFalse(client.me(fresh).email().isEmpty(), "the seeded user is there again");
    }
}
