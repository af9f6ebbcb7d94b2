package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.H2Only;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.Receiver;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 33, "Graceful shutdown and rolling restarts", on one node over an H2 file: SIGTERM in the
 * middle of publishing, and the order of a stop as a load balancer sees it. Runs in the H2 pass only
 * (@H2Only); the nodes on PostgreSQL are RollingRestartTest's.
 */
@H2Only
@Heavy
class GracefulStopTest {
    @TempDir
    Path dir;

    /**
     * Clients publish to the only node; it gets SIGTERM, answers each of them with a 202, the
     * documented 503 or (once its port is closed) a refused connection, logs every phase and exits 0;
     * started again on the same database, it delivers every event acknowledged before, and a
     * webhook-id arrives twice only where a second attempt is recorded.
     */
    @Test
    void sigtermDuringPublishingExitsZeroAndLosesNothing() throws Exception {
        try (Receiver receiver = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", receiver))) {
            receiver.answer(r -> new Receiver.Answer(200, Map.of(), Duration.ofMillis(20)));
            int port = ServerProcess.freePort();
            String[] settings = {"delivery.poll-interval=PT0.1S", "delivery.timeout=PT5S"};
            Publishers publishers = new Publishers(s.fixture().account().accountId(), s.fixture().user().id());
            try (ServerProcess node = ServerProcess.start(s.db(), s.key(), dir.resolve("first.log"), port, settings)) {
                node.awaitBaseUrl();
                publishers.publishTo("node", "http://127.0.0.1:" + port, 3);
                Deliveries.await("events acknowledged (failures: " + publishers.failures + ")", () -> publishers.acknowledged.size() >= 300);
                node.sigterm();
                assertEquals(0, node.awaitExit(), "exit status after SIGTERM; log " + node.log());
                RollingRestartTest.assertEveryPhaseLogged(node.log());
            } finally {
                publishers.close();
            }
            assertEquals(List.of(), List.copyOf(publishers.failures), "answers other than 202, the documented 503 and a refused connection");
            assertEquals(List.of(), RollingRestartTest.storedEvents(s, publishers.closedUnanswered),
                    "requests whose connection closed before an answer were handled all the same (an acknowledgement lost)");

            Set<Long> acknowledged = Set.copyOf(publishers.acknowledged);
            try (ServerProcess again = ServerProcess.start(s.db(), s.key(), dir.resolve("again.log"), port, settings)) {
                again.awaitBaseUrl();
                Deliveries.await("every acknowledged event delivered (" + acknowledged.size() + ")",
                        () -> RollingRestartTest.receivedObjectIds(receiver).containsAll(acknowledged) && s.count("pending") == 0);
            }
            Map<String, Long> perWebhookId = receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                    .collect(Collectors.groupingBy(r -> r.header("webhook-id"), Collectors.counting()));
            Set<String> sentTwiceWithoutRetry = new TreeSet<>();
            perWebhookId.forEach((id, times) -> {
                if (times > 1 && RollingRestartTest.attemptsRecorded(s, id) < times) sentTwiceWithoutRetry.add(id + " x" + times);
            });
            assertEquals(Set.of(), sentTwiceWithoutRetry, "webhook-ids received more often than attempts were recorded");
            System.out.printf("GracefulStopTest: %d events acknowledged, %d answered 503, %d refused connections, %d webhook-ids received%n",
                    acknowledged.size(), publishers.unavailable.get(), publishers.refused.get(), perWebhookId.size());
        }
    }

    /** One look at the node: /readyz on the management port, then a request to the API port. */
    private record Look(Object ready, Object api, boolean apiClosesConnection) {}

    /**
     * A load balancer's view: after SIGTERM, /readyz (management port) answers 503 while the API still
     * answers normally, each answer closing its connection (shutdown.drain); only then does the API
     * port refuse connections, and the process exits 0.
     */
    @Test
    void readinessTurns503BeforeTheApiPortCloses() throws Exception {
        try (Receiver receiver = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", receiver))) {
            int management = ServerProcess.freePort();
            try (ServerProcess node = ServerProcess.start(s.db(), s.key(), dir.resolve("node.log"),
                    "management.port=" + management, "shutdown.drain=PT15S");
                 HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                String api = node.awaitBaseUrl() + "/openapi.json";
                String readyz = "http://127.0.0.1:" + management + "/readyz";
                assertEquals(new Look(200, 200, false), look(http, readyz, api));
                node.sigterm();
                List<Look> looks = new ArrayList<>();
                Look last;
                do {
                    last = look(http, readyz, api);
                    looks.add(last);
                } while (!"refused".equals(last.api()) && looks.size() < 100_000);
                int exit = node.awaitExit();
                System.out.println("GracefulStopTest, what a load balancer saw: " + summary(looks));

                int notReady = indexOf(looks, l -> Integer.valueOf(503).equals(l.ready()));
                assertTrue(notReady >= 0, "/readyz never answered 503: " + summary(looks));
                assertTrue(looks.subList(notReady, looks.size()).stream().noneMatch(l -> Integer.valueOf(200).equals(l.ready())),
                        "ready again after 503: " + summary(looks));
                assertTrue(looks.subList(notReady, looks.size()).stream().anyMatch(l -> Integer.valueOf(200).equals(l.api()) && l.apiClosesConnection()),
                        "the API answered (with Connection: close) once /readyz said 503: " + summary(looks));
                assertTrue(looks.stream().allMatch(l -> Set.of(200, 503, "refused").contains(l.api())
                                && (l.ready() instanceof Integer || "refused".equals(l.ready()))),
                        "every answer a normal one, the documented 503 or a refused connection: " + summary(looks));
                assertEquals(0, exit, "exit status after SIGTERM; log " + node.log());
            }
        }
    }

    private static Look look(HttpClient http, String readyz, String api) throws InterruptedException {
        Object ready;
        try {
            ready = http.send(HttpRequest.newBuilder(URI.create(readyz)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (ConnectException e) {
            ready = "refused";
        } catch (IOException e) {
            ready = e.toString();
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api)).build(), HttpResponse.BodyHandlers.ofString());
            boolean closes = r.headers().firstValue("Connection").map(v -> v.equalsIgnoreCase("close")).orElse(false);
            if (r.statusCode() == 503 && !Publishers.isDocumentedUnavailable(r)) return new Look(ready, "503 not in the documented shape: " + r.body(), closes);
            return new Look(ready, r.statusCode(), closes);
        } catch (ConnectException e) {
            return new Look(ready, "refused", false);
        } catch (IOException e) {
            return new Look(ready, e.toString(), false);
        }
    }

    private static int indexOf(List<Look> looks, java.util.function.Predicate<Look> p) {
        for (int i = 0; i < looks.size(); i++) if (p.test(looks.get(i))) return i;
        return -1;
    }

    /** The looks with runs of equal ones counted, for a failure's message. */
    private static String summary(List<Look> looks) {
        List<String> runs = new ArrayList<>();
        Look previous = null;
        int n = 0;
        for (Look l : looks) {
            if (l.equals(previous)) {
                n++;
                continue;
            }
            if (previous != null) runs.add(previous + " x" + n);
            previous = l;
            n = 1;
        }
        if (previous != null) runs.add(previous + " x" + n);
        return String.join(", ", runs);
    }
}
