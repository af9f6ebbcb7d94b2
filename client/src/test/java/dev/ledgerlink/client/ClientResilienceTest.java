package dev.ledgerlink.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client behind a proxy, as integration developers run it: a real HTTP proxy on loopback in
 * front of the real server answers some requests itself (an HTML 502, a 503 or 429 with Retry-After)
 * and forwards the rest.
 */
class ClientResilienceTest {
    static TestServer server;
    static HttpServer proxy;
    static final ConcurrentLinkedQueue<Canned> canned = new ConcurrentLinkedQueue<>();
    static final AtomicInteger forwarded = new AtomicInteger();

    record Canned(int status, String contentType, String body, String retryAfter) {}

    @BeforeAll
    static void start() throws IOException {
        server = TestServer.start();
        HttpClient upstream = HttpClient.newHttpClient();
        proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        proxy.createContext("/", exchange -> {
            byte[] requestBody = exchange.getRequestBody().readAllBytes();
            Canned c = canned.poll();
            if (c != null) {
                byte[] bytes = c.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", c.contentType());
                if (c.retryAfter() != null) exchange.getResponseHeaders().set("Retry-After", c.retryAfter());
                exchange.sendResponseHeaders(c.status(), bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
                return;
            }
            forwarded.incrementAndGet();
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(requestBody));
            for (String h : new String[] {"Authorization", "Content-Type", "Api-Version", "Accept"}) {
                String v = exchange.getRequestHeaders().getFirst(h);
                if (v != null) b.header(h, v);
            }
            try {
                HttpResponse<byte[]> r = upstream.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                r.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
                exchange.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
                exchange.getResponseBody().write(r.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        proxy.start();
    }

    @AfterAll
    static void stop() {
        proxy.stop(0);
        server.close();
    }

    private static LedgerlinkClient client(Fixtures f) {
        return LedgerlinkClient.builder("http://127.0.0.1:" + proxy.getAddress().getPort(), f.app().clientId(), f.clientSecret(),
                Fixtures.REDIRECT_URI).build();
    }

    private static String token(Fixtures f) {
        return server.services().tokens().issue(f.user().id(), f.app().id(), Set.of("user:profile:read")).accessToken();
    }

    @Test
    void aProxysHtml502KeepsTheStatusAndAReadableMessage() {
        Fixtures f = Fixtures.create(server);
        canned.add(new Canned(502, "text/html", "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>", null));
        ApiException e = assertThrows(ApiException.class, () -> client(f).me(token(f)));
        assertEquals(502, e.status());
        assertEquals("http_502", e.error());
        assertTrue(e.getMessage().contains("502 Bad Gateway"), e.getMessage());
        assertTrue(!e.getMessage().contains("<"), "no markup in the message: " + e.getMessage());
    }

    @Test
    void aPlainTextErrorIsNotReadAsANumber() {
        Fixtures f = Fixtures.create(server);
        canned.add(new Canned(502, "text/plain", "502 Bad Gateway", null));
        OAuthException e = assertThrows(OAuthException.class, () -> client(f).refresh("whatever"));
        assertEquals(502, e.status());
        assertTrue(e.getMessage().contains("502 Bad Gateway"), e.getMessage());
    }

    @Test
    void a503WithRetryAfterIsRetriedAfterTheDelayAndSucceeds() {
        Fixtures f = Fixtures.create(server);
        String token = token(f);
        int before = forwarded.get();
        canned.add(new Canned(503, "application/json", "{\"errno\":503,\"error\":\"unavailable\",\"message\":\"database unreachable\"}", "1"));
        canned.add(new Canned(429, "application/json", "{\"errno\":429,\"error\":\"too_many_requests\",\"message\":\"slow down\"}", "1"));
        assertEquals(f.user().email(), client(f).me(token).email());
        assertEquals(before + 1, forwarded.get(), "the third try reached the server");
    }

    @Test
    void aRetryAfterBeyondTheLimitIsThrownWithTheDelay() {
        Fixtures f = Fixtures.create(server);
        canned.add(new Canned(429, "application/json", "{\"errno\":429,\"error\":\"too_many_requests\",\"message\":\"slow down\"}", "120"));
        ApiException e = assertThrows(ApiException.class, () -> client(f).me(token(f)));
        assertEquals(429, e.status());
        assertEquals(Duration.ofSeconds(120), e.retryAfter().orElseThrow());
        canned.clear();
    }

    @Test
    void retriesRunOutAfterTheConfiguredCount() {
        Fixtures f = Fixtures.create(server);
        LedgerlinkClient once = LedgerlinkClient.builder("http://127.0.0.1:" + proxy.getAddress().getPort(), f.app().clientId(),
                f.clientSecret(), Fixtures.REDIRECT_URI).retries(0, Duration.ofSeconds(30)).build();
        canned.add(new Canned(503, "application/json", "{\"errno\":503,\"error\":\"unavailable\",\"message\":\"database unreachable\"}", "1"));
        ApiException e = assertThrows(ApiException.class, () -> once.me(token(f)));
        assertEquals(503, e.status());
        assertEquals("unavailable", e.error());
        assertEquals(Duration.ofSeconds(1), e.retryAfter().orElseThrow());
    }
}
