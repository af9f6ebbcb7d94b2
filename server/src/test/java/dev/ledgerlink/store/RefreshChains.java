package dev.ledgerlink.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.delivery.Publishers;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.TestHttp;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients refreshing their grants in a closed loop, each holding one chain of refresh tokens and
 * sending each refresh to the next node in turn, as a load balancer spreads them. A 200 moves the
 * chain on; the documented 503 with Retry-After, a refused connection (a node's port closed) or a
 * connection closed before any answer (never handled: see Publishers) send the same token to the next
 * node. Anything else breaks the chain, and is kept with the step of the test it happened in: a
 * refresh token refused, another status, an answer cut in the middle.
 */
final class RefreshChains implements AutoCloseable {
    final Queue<String> failures = new ConcurrentLinkedQueue<>();
    final AtomicLong refreshed = new AtomicLong();
    /** What the test is doing, named in each failure. */
    volatile String phase = "";
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final List<String> bases;
    private final String clientId;
    private final String clientSecret;

    /** {@code bases}: the nodes' API addresses, taken in turn. */
    RefreshChains(List<String> bases, String clientId, String clientSecret) {
        this.bases = List.copyOf(bases);
        this.clientId = clientId;
        this.clientSecret = clientSecret;
    }

    /** Starts a client refreshing the chain that begins with {@code refreshToken}. */
    void start(String name, String refreshToken) {
        threads.add(Thread.ofPlatform().daemon().name("refresh-" + name).start(() -> loop(name, refreshToken)));
    }

    private void loop(String name, String first) {
        String token = first;
        int next = 0;
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build()) {
            while (!stop.get()) {
                String base = bases.get(next++ % bases.size());
                HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/auth/oauth/token"))
                        .timeout(Duration.ofSeconds(120))   // a hang, not a timing check
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(BrowserSession.form(Map.of("grant_type", "refresh_token",
                                "client_id", clientId, "client_secret", clientSecret, "refresh_token", token))))
                        .build();
                try {
                    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        JsonNode body = TestHttp.JSON.readTree(r.body());
                        token = body.get("refresh_token").asText();
                        refreshed.incrementAndGet();
                    } else if (!Publishers.isDocumentedUnavailable(r)) {
                        failures.add(phase + ": chain " + name + " at " + base + ": refresh answered " + r.statusCode() + " " + r.body());
                        return;   // the chain is broken: its token is gone
                    }
                } catch (ConnectException closedPort) {
                    pause();
                } catch (IOException e) {
                    if (!String.valueOf(e.getMessage()).contains("header parser received no bytes")) {
                        failures.add(phase + ": chain " + name + " at " + base + ": " + e);
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) t.join(Duration.ofSeconds(90));
    }
}
