package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.net.PublicAddressGate;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** A receiver slower than a kept-alive connection may idle, against a real one on loopback (half a minute of waiting). */
class DeliverySenderLongWaitTest {

    /**
     * delivery.timeout is the whole wait, even beyond the 30 s a pooled connection may idle: a receiver
     * that answers after 32 s within a 60 s timeout is answered, not cut off as an idle connection
     * (which a rolling restart's attempt in flight met on a busy machine).
     */
    @Test
    void aReceiverSilentForLongerThanTheIdleTimeoutIsAwaitedUntilTheDeliveryTimeout() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            try {
                Thread.sleep(Duration.ofSeconds(32));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "late".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        receiver.start();
        String uri = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        WebhookRequest request = new WebhookRequest("name=invoice.create", Map.of("Content-Type", "application/x-www-form-urlencoded"),
                "name=invoice.create");
        try (DeliverySender sender = new DeliverySender(Duration.ofSeconds(60), 4, PublicAddressGate.of(true, PublicAddressGate.SYSTEM), Clock.systemUTC())) {
            AttemptOutcome outcome = sender.send(uri, request);
            assertNull(outcome.error(), outcome.error());
            assertEquals(200, outcome.status());
            assertEquals("late", outcome.responseBody());
        } finally {
            receiver.stop(0);
        }
    }
}
