package dev.ledgerlink.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Java client library against the real server over loopback: the whole life of an integration. */
@LedgerlinkTest
class LedgerlinkClientTest {
    static TestServer server;

    private static LedgerlinkClient clientFor(Fixtures f) {
        return LedgerlinkClient.builder(server.baseUrl(), f.app().clientId(), f.clientSecret(), Fixtures.REDIRECT_URI).build();
    }

    /** The user's part: follow the authorization URL, log in, authorize; returns the redirect's query. */
    private static BrowserSession authorize(Fixtures f, String authorizationUrl) {
        BrowserSession browser = server.closeFirst(new BrowserSession(server.baseUrl()));
        browser.get(authorizationUrl);
        browser.logIn(f.user().email(), f.password());
        if (browser.last.status() == 200) browser.authorize();
        assertEquals(303, browser.last.status(), browser.last.body());
        return browser;
    }

    @Test
    void authorizeExchangeWithPkceRefreshAndRevoke() {
        Fixtures f = Fixtures.create(server);
        LedgerlinkClient client = clientFor(f);
        Pkce pkce = Pkce.create();
        String url = client.authorizationUrl("state with spaces & symbols", List.of("user:profile:read"), pkce);
        BrowserSession browser = authorize(f, URI.create(url).getRawPath() + "?" + URI.create(url).getRawQuery());
        assertEquals("state with spaces & symbols", browser.redirectParams().get("state"));

        Tokens tokens = client.exchangeCode(browser.redirectParams().get("code"), pkce.verifier());
        assertEquals("Bearer", tokens.tokenType());
        assertEquals(43200, tokens.expiresIn());
        assertEquals("user:profile:read", tokens.scope());

        Identity me = client.me(tokens.accessToken());
        assertEquals(f.user().email(), me.email());
        assertEquals(f.account().accountId(), me.memberships().getFirst().accountId());

        Tokens next = client.refresh(tokens.refreshToken());
        assertNotEquals(tokens.refreshToken(), next.refreshToken());
        OAuthException reused = assertThrows(OAuthException.class, () -> client.refresh(tokens.refreshToken()));
        assertEquals("invalid_grant", reused.error());
        assertTrue(reused.description().contains("already used"), reused.description());

        client.revoke(next.accessToken());
        ApiException revoked = assertThrows(ApiException.class, () -> client.me(next.accessToken()));
        assertEquals(401, revoked.status());
    }

    @Test
    void aWrongSecretIsInvalidClient() {
        Fixtures f = Fixtures.create(server);
        LedgerlinkClient wrong = LedgerlinkClient.builder(server.baseUrl(), f.app().clientId(), "not-the-secret", Fixtures.REDIRECT_URI).build();
        OAuthException e = assertThrows(OAuthException.class, () -> wrong.refresh("whatever"));
        assertEquals(401, e.status());
        assertEquals("invalid_client", e.error());
    }

    @Test
    void registerVerifyThroughAReceiverListUpdateAndDelete() throws Exception {
        Fixtures f = Fixtures.create(server);
        String token = f.issue().accessToken();
        CallbacksClient callbacks = clientFor(f).callbacks(token, f.account().accountId());

        try (Receiver receiver = new Receiver()) {
            Callback registered = callbacks.register("invoice.create", receiver.uri());
            assertFalse(registered.verified());

            // The receiver's side: the verification request carries the code; send it back.
            Receiver.Got verification = receiver.next();
            Notification v = Notification.parse(verification.body());
            assertTrue(v.isVerification());
            assertEquals(registered.id(), v.objectId());
            assertTrue(Notification.isAuthentic(v.verifier(), verification.body(), verification.signature()));
            Callback verified = callbacks.verify(registered.id(), v.verifier());
            assertTrue(verified.verified());

            // A published event reaches the receiver, signed with the code.
            server.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), 42L, f.user().id(), null));
            Receiver.Got event = receiver.next();
            Notification n = Notification.parse(event.body());
            assertEquals("invoice.create", n.name());
            assertEquals(42, n.objectId());
            assertEquals(f.account().accountId(), n.accountId());
            assertTrue(Notification.isAuthentic(v.verifier(), event.body(), event.signature()));
            assertFalse(Notification.isAuthentic("another code", event.body(), event.signature()));

            CallbackPage page = callbacks.list(1, 15, "invoice", null, true);
            assertEquals(1, page.total());
            assertEquals(registered.id(), page.callbacks().getFirst().id());
            assertEquals(0, callbacks.list(1, 15, "client", null, null).total());
            assertEquals(registered.id(), callbacks.get(registered.id()).id());

            Callback moved = callbacks.update(registered.id(), "invoice", null);
            assertEquals("invoice", moved.event());

            callbacks.delete(registered.id());
            ApiException gone = assertThrows(ApiException.class, () -> callbacks.get(registered.id()));
            assertEquals(404, gone.status());
        }
    }

    @Test
    void validationErrorsNameTheFieldAtFault() {
        Fixtures f = Fixtures.create(server);
        CallbacksClient callbacks = clientFor(f).callbacks(f.issue().accessToken(), f.account().accountId());
        ApiException e = assertThrows(ApiException.class, () -> callbacks.register("invoice.explode", "https://example.com/hook"));
        assertEquals(422, e.status());
        assertTrue(e.fields().contains("callback.event"), e.fieldViolations().toString());
    }

    /** A receiver as an integrating application runs one. */
    static final class Receiver implements AutoCloseable {
        record Got(String body, String signature) {}

        private final HttpServer http;
        private final LinkedBlockingQueue<Got> got = new LinkedBlockingQueue<>();

        Receiver() throws IOException {
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
            http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            http.createContext("/", ex -> {
                String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                got.add(new Got(body, ex.getRequestHeaders().getFirst(Notification.SIGNATURE_HEADER)));
                ex.sendResponseHeaders(200, -1);
                ex.close();
            });
            http.start();
        }

        String uri() {
            return "http://127.0.0.1:" + http.getAddress().getPort() + "/hooks";
        }

        Got next() throws InterruptedException {
            Got g = got.poll(30, TimeUnit.SECONDS);
            if (g == null) throw new AssertionError("nothing received within 30 s");
            return g;
        }

        @Override
        public void close() {
            http.stop(0);
        }
    }
}
