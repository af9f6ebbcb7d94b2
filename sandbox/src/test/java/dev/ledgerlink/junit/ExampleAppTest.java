package dev.ledgerlink.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.client.Callback;
import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.client.Notification;
import dev.ledgerlink.client.Tokens;
import dev.ledgerlink.client.sandbox.Delivery;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example of docs/sandbox.md: an integration developer's app, written with the Java client,
 * registers a callback, completes the verification handshake and checks the signature of a
 * notification; the sandbox supplies the server, the token, the event and what was delivered.
 */
class ExampleAppTest {

    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("example-seed.yaml");

    /** The app under test: a webhook receiver that answers the handshake and accepts only signed notifications. */
    static final class InvoiceSyncApp implements AutoCloseable {
        final LinkedBlockingQueue<Notification> notifications = new LinkedBlockingQueue<>();
        final CountDownLatch verified = new CountDownLatch(1);
        private final HttpServer server;
        private volatile String verificationCode;

        InvoiceSyncApp(LedgerlinkClient client, String accessToken, String accountId) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
            server.createContext("/webhooks", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                Notification n = Notification.parse(body);
                if (n.isVerification()) {
                    verificationCode = n.verifier();           // the key of every later signature: keep it
                    exchange.sendResponseHeaders(200, -1);
                    exchange.close();
                    client.callbacks(accessToken, accountId).verify(n.objectId(), n.verifier());
                    verified.countDown();
                    return;
                }
                try {
                    notifications.add(Notification.verify(verificationCode, body, exchange.getRequestHeaders()));
                    exchange.sendResponseHeaders(200, -1);
                } catch (Notification.InvalidSignatureException e) {
                    exchange.sendResponseHeaders(401, -1);
                }
                exchange.close();
            });
            server.start();
        }

        String uri() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    LedgerlinkClient client;
    InvoiceSyncApp app;

    @BeforeEach
    void connect() throws IOException {
        client = LedgerlinkClient.builder(sandbox.baseUrl(), "invoicesync01", "invoice-sync-test-secret", "http://localhost:8000/callback").build();
        app = new InvoiceSyncApp(client, sandbox.tokens("ana@example.com", "invoicesync01").accessToken(), "ANA01");
    }

    @AfterEach
    void stop() {
        app.close();
    }

    @Test
    void theAppRegistersACallbackAndVerifiesANotification() throws Exception {
        String token = sandbox.tokens("ana@example.com", "invoicesync01").accessToken();
        Callback callback = client.callbacks(token, "ANA01").register("invoice.create", app.uri());
        assertTrue(app.verified.await(30, TimeUnit.SECONDS), "the app answered the verification request");
        assertTrue(client.callbacks(token, "ANA01").get(callback.id()).verified());

        long ana = sandbox.userId("ana@example.com");
        sandbox.publish("ANA01", "invoice.create", 42, ana);

        Notification n = app.notifications.poll(30, TimeUnit.SECONDS);
        assertNotNull(n, "a signed notification reached the app");
        assertEquals("invoice.create", n.name());
        assertEquals(42, n.objectId());
        assertEquals("ANA01", n.accountId());
        Delivery delivery = sandbox.awaitDelivery(callback.id(), "invoice.create", Duration.ofSeconds(30));
        assertEquals(200, delivery.attempts().getFirst().statusCode(), "the app accepted the signature");
    }

    @Test
    void theAuthorizationPageGivesACodeTheAppExchanges() {
        String code = sandbox.authorizationCode("ana@example.com", "invoicesync01", "http://localhost:8000/callback");
        Tokens tokens = client.exchangeCode(code, null);
        assertEquals("Ana", client.me(tokens.accessToken()).firstName());
        assertEquals("user:profile:read user:invoices:read", tokens.scope());
    }
}
