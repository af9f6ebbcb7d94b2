package com.example.invoicesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.CallbacksClient;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.junit.LedgerlinkSandbox;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InvoiceSyncTest {
    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("seed.yaml");

    @Test
    void myAppGetsATokenRegistersACallbackAndReceivesASignedEvent() throws Exception {
        BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        receiver.createContext("/webhooks", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8) + "\n"
                    + exchange.getRequestHeaders().getFirst(Notification.SIGNATURE_HEADER));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            LedgerlinkClient client = LedgerlinkClient.builder(sandbox.baseUrl(), "invoicesync01", "invoice-sync-test-secret",
                    "http://localhost:8000/callback").build();
            String token = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
            assertEquals("Ana", client.me(token).firstName());

            CallbacksClient callbacks = client.callbacks(token, "ANA01");
            Callback callback = callbacks.register("invoice.create", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/webhooks");
            String verification = bodies.poll(60, TimeUnit.SECONDS);
            String code = Notification.parse(verification.substring(0, verification.indexOf('\n'))).verifier();
            assertTrue(callbacks.verify(callback.id(), code).verified());

            long ana = sandbox.userId("ana@example.com");
            sandbox.publish("ANA01", "invoice.create", 42, ana);
            String event = bodies.poll(60, TimeUnit.SECONDS);
            String body = event.substring(0, event.indexOf('\n')), signature = event.substring(event.indexOf('\n') + 1);
            assertTrue(Notification.isAuthentic(code, body, signature));
            assertEquals(42, Notification.parse(body).objectId());
            sandbox.awaitDelivery(callback.id(), "invoice.create", Duration.ofSeconds(30));
        } finally {
            receiver.stop(0);
        }
    }
}
