package dev.ledgerlink.delivery;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients publishing invoice.create events to server processes' APIs in a closed loop, as the
 * platform's services do (POST /internal/v1/events with the operator key), over keep-alive
 * connections, each answer judged: 202 acknowledges the event (its object id is kept); a 503 in the
 * documented shape with Retry-After, and a refused connection (the port is closed), are what a
 * stopping node may answer. A connection closed before any byte of an answer is what a client meets
 * when it connects in the instant the port closes (the kernel resets connections not yet accepted):
 * its object id is kept in {@link #closedUnanswered}, and the test checks that the server never
 * handled such a request (no event stored), which makes it as safe to send again as a refused
 * connection. Anything else (another status, a connection cut in the middle of an answer, a timeout)
 * is a failure, kept with what happened.
 */
public final class Publishers implements AutoCloseable {
    public static final String OPERATOR_KEY = "unused-in-this-test";   // ServerProcess's events.operator-key

    public final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    public final Queue<String> failures = new ConcurrentLinkedQueue<>();
    public final AtomicLong unavailable = new AtomicLong();
    public final AtomicLong refused = new AtomicLong();
    public final Set<Long> closedUnanswered = ConcurrentHashMap.newKeySet();
    /** What the test is doing (an upgrade's step), named in each failure recorded meanwhile. */
    public volatile String phase = "";
    private final AtomicLong nextObjectId = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final String accountId;
    private final long userId;

    public Publishers(String accountId, long userId) {
        this.accountId = accountId;
        this.userId = userId;
    }

    /** Starts {@code clients} publishers against the API at {@code base} (e.g. http://127.0.0.1:port). */
    public void publishTo(String node, String base, int clients) {
        for (int i = 0; i < clients; i++) {
            threads.add(Thread.ofPlatform().daemon().name("publisher-" + node + "-" + i).start(() -> loop(node, base)));
        }
    }

    private void loop(String node, String base) {
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build()) {
            while (!stop.get()) {
                long objectId = nextObjectId.incrementAndGet();
                HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/internal/v1/events"))
                        .timeout(Duration.ofSeconds(120))   // a hang, not a timing check: the machine may be very loaded
                        .header("Authorization", "Bearer " + OPERATOR_KEY)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"invoice.create\",\"account_id\":\"" + accountId
                                + "\",\"object_id\":" + objectId + ",\"user_id\":" + userId + "}"))
                        .build();
                try {
                    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 202) {
                        acknowledged.add(objectId);
                    } else if (isDocumentedUnavailable(r)) {
                        unavailable.incrementAndGet();
                        pause(50);
                    } else {
                        failures.add(phase + ": " + node + ": object " + objectId + " answered " + r.statusCode() + " " + r.headers().map() + " " + r.body());
                    }
                } catch (ConnectException closedPort) {
                    refused.incrementAndGet();
                    pause(100);
                } catch (IOException e) {
                    // Java's HTTP/1.1 client says this when the connection ended before the first byte of the answer.
                    if (String.valueOf(e.getMessage()).contains("header parser received no bytes")) closedUnanswered.add(objectId);
                    else failures.add(phase + ": " + node + ": object " + objectId + " failed: " + e);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** 503, Retry-After, and the documented error body (error "unavailable"). */
    public static boolean isDocumentedUnavailable(HttpResponse<String> r) {
        if (r.statusCode() != 503 || r.headers().firstValue("Retry-After").isEmpty()) return false;
        try {
            JsonNode body = TestHttp.JSON.readTree(r.body());
            return "unavailable".equals(body.path("error").asText()) && body.path("errno").asInt() == 503 && body.has("message");
        } catch (IOException notJson) {
            return false;
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishing stops; waits for the requests on their way to be answered. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) t.join(Duration.ofSeconds(90));
    }
}
