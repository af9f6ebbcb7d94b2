package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresOnly;
import dev.ledgerlink.testing.Receiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 33, "Graceful shutdown and rolling restarts": `ledgerlink serve` processes on one PostgreSQL
 * database stopped with SIGTERM, as a rolling restart or a scale-down stops them, while the other
 * node runs. Runs in the PostgreSQL pass only (@PostgresOnly); the H2 single node and readiness are
 * GracefulStopTest's.
 */
@PostgresOnly
@Heavy
class RollingRestartTest {
    /** Quick polling, so the other node takes over at once; shutdown.drain and shutdown.grace stay at their defaults. */
    private static final String[] NODE = {"delivery.poll-interval=PT0.1S", "delivery.timeout=PT5S", "delivery.retry-schedule=PT0.5S,PT1S,PT2S"};
    static final List<String> PHASES = List.of("shutting down (1/5)", "shutting down (2/5)", "shutting down (3/5)",
            "shutting down (4/5)", "shutting down (5/5)");

    @TempDir
    Path dir;

    /**
     * Two nodes under publishing load (three clients each, over keep-alive connections) and a receiver
     * that records every webhook-id; each node in turn gets SIGTERM, exits, and is started again on its
     * address while the other runs. Every request a client sent got a 202, the documented 503 with
     * Retry-After, or a refused connection once the port had closed (never a reset, a connection closed
     * before the answer, or another status); each process exited 0 after logging every phase; every
     * acknowledged event was delivered; a webhook-id arrived twice only where a second attempt is recorded.
     */
    @Test
    void eachNodeRestartedWithSigtermUnderPublishingLoadLosesNothingSendsNothingTwiceAndExitsZero() throws Exception {
        try (Receiver receiver = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", receiver))) {
            // A little slow to answer, so that attempts are in flight whenever a SIGTERM lands.
            receiver.answer(r -> new Receiver.Answer(200, Map.of(), Duration.ofMillis(20)));
            int[] ports = {ServerProcess.freePort(), ServerProcess.freePort()};
            ServerProcess[] nodes = new ServerProcess[2];
            Publishers publishers = new Publishers(s.fixture().account().accountId(), s.fixture().user().id());
            try {
                for (int n = 0; n < 2; n++) nodes[n] = ServerProcess.start(s.db(), s.key(), dir.resolve("node" + n + "-first.log"), ports[n], NODE);
                for (int n = 0; n < 2; n++) {
                    nodes[n].awaitBaseUrl();
                    publishers.publishTo("node" + n, "http://127.0.0.1:" + ports[n], 3);
                }
                for (int n = 0; n < 2; n++) {
                    awaitMoreAcknowledged(publishers, 200);
                    ServerProcess stopping = nodes[n];
                    stopping.sigterm();
                    assertEquals(0, stopping.awaitExit(), "exit status after SIGTERM; log " + stopping.log());
                    assertEveryPhaseLogged(stopping.log());
                    nodes[n] = ServerProcess.start(s.db(), s.key(), dir.resolve("node" + n + "-restarted.log"), ports[n], NODE);
                    nodes[n].awaitBaseUrl();
                }
                awaitMoreAcknowledged(publishers, 200);
                publishers.close();
                assertEquals(List.of(), List.copyOf(publishers.failures), "answers other than 202, the documented 503 and a refused connection");
                assertEquals(List.of(), storedEvents(s, publishers.closedUnanswered),
                        "requests whose connection closed before an answer were handled all the same (an acknowledgement lost)");

                Set<Long> acknowledged = Set.copyOf(publishers.acknowledged);
                Deliveries.await("every acknowledged event delivered (" + acknowledged.size() + ")",
                        () -> receivedObjectIds(receiver).containsAll(acknowledged) && s.count("pending") == 0);
            } finally {
                publishers.close();
                for (ServerProcess node : nodes) if (node != null) node.close();
            }
            Map<String, Long> perWebhookId = receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                    .collect(Collectors.groupingBy(r -> r.header("webhook-id"), Collectors.counting()));
            Set<String> sentTwiceWithoutRetry = new TreeSet<>();
            perWebhookId.forEach((id, times) -> {
                if (times > 1 && attemptsRecorded(s, id) < times) sentTwiceWithoutRetry.add(id + " x" + times);
            });
            assertEquals(Set.of(), sentTwiceWithoutRetry, "webhook-ids received more often than attempts were recorded");
            assertEquals(0, s.count("dropped"));
            System.out.printf("RollingRestartTest: %d events acknowledged, %d answered 503, %d refused connections, %d connections closed "
                            + "before an answer (none handled), %d webhook-ids received%n", publishers.acknowledged.size(), publishers.unavailable.get(),
                    publishers.refused.get(), publishers.closedUnanswered.size(), perWebhookId.size());
        }
    }

    /**
     * A receiver that does not answer: the node holding the attempt gets SIGTERM with shutdown.grace of
     * 2 s; the attempt is recorded as cut short and the delivery handed back, and the other node,
     * which could take it over only when the 5-minute lease ends, delivers it at once.
     */
    @Test
    void anAttemptLongerThanTheGraceIsHandedBackAndDeliveredByTheOtherNode() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        try (Receiver receiver = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", receiver))) {
            receiver.answer(r -> {
                if ("invoice.create".equals(r.param("name")) && first.getAndSet(false)) {
                    try {
                        answer.await(300, TimeUnit.SECONDS);   // hangs until the test ends
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return Receiver.Answer.of(200);
            });
            // A timeout longer than the second node may take to start on a busy machine: the attempt must still be in flight at SIGTERM.
            String[] settings = {"delivery.poll-interval=PT0.1S", "delivery.timeout=PT4M", "delivery.lease=PT5M",
                    "shutdown.grace=PT2S", "shutdown.drain=PT0S"};
            try (ServerProcess holding = ServerProcess.start(s.db(), s.key(), dir.resolve("holding.log"), settings)) {
                holding.awaitBaseUrl();
                s.publish(1);
                receiver.await(1, r -> "invoice.create".equals(r.param("name")));   // in flight at the first node, unanswered
                try (ServerProcess other = ServerProcess.start(s.db(), s.key(), dir.resolve("other.log"), settings)) {
                    other.awaitBaseUrl();
                    holding.sigterm();
                    assertEquals(0, holding.awaitExit(), "exit status after SIGTERM; log " + holding.log());
                    String log = Files.readString(holding.log());
                    assertTrue(log.contains("0 attempts finished, 1 handed back"), log);
                    Deliveries.await("delivered by the other node", () -> s.count("delivered") == 1);
                }
            } finally {
                answer.countDown();
            }
            List<String> attempts = s.services().database().jdbi().withHandle(h -> h.createQuery(
                    "select coalesce(cast(a.status_code as varchar), a.error) from delivery_attempts a join deliveries d on d.id = a.delivery_id "
                            + "where d.kind = 'event' order by a.attempt").mapTo(String.class).list());
            assertEquals(2, attempts.size(), attempts.toString());
            assertTrue(attempts.get(0).startsWith("cut short: the server stopped"), attempts.toString());
            assertEquals("200", attempts.get(1));
            List<String> ids = receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name"))).map(r -> r.header("webhook-id")).toList();
            assertEquals(2, ids.size(), ids.toString());
            assertEquals(ids.get(0), ids.get(1), "the same message, sent again");
        }
    }

    private static void awaitMoreAcknowledged(Publishers publishers, int more) {
        int before = publishers.acknowledged.size();
        Deliveries.await(more + " more events acknowledged (failures so far: " + publishers.failures + ")",
                () -> publishers.acknowledged.size() >= before + more);
    }

    static void assertEveryPhaseLogged(Path log) throws java.io.IOException {
        String text = Files.readString(log);
        for (String phase : PHASES) assertTrue(text.contains(phase), "no '" + phase + "' line in " + log + ":\n" + text);
        text.lines().filter(l -> l.contains("shutting down") || l.contains("received")).forEach(System.out::println);
    }

    /** Those of these object ids for which an event is stored: the server handled their publish. */
    static List<Long> storedEvents(SharedQueue s, Set<Long> objectIds) {
        if (objectIds.isEmpty()) return List.of();
        return s.services().database().jdbi().withHandle(h -> h.createQuery("select object_id from events where object_id in (<ids>)")
                .bindList("ids", List.copyOf(objectIds)).mapTo(Long.class).list());
    }

    static Set<Long> receivedObjectIds(Receiver receiver) {
        return receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                .map(r -> Long.parseLong(r.param("object_id"))).collect(Collectors.toSet());
    }

    /** The attempts recorded for the delivery of this webhook-id (msg_ followed by the delivery's id). */
    static long attemptsRecorded(SharedQueue s, String webhookId) {
        long deliveryId = Long.parseLong(webhookId.substring("msg_".length()));
        return s.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from delivery_attempts where delivery_id = :id")
                .bind("id", deliveryId).mapTo(Long.class).one());
    }
}
