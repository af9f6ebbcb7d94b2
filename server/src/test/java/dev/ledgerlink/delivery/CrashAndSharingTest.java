package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.callbacks.OperatorCallbacks;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.Receiver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real server processes on one shared database: a SIGKILL in the middle of the work loses nothing,
 * and two servers sharing a queue send each message once. On the H2 run the database is an H2 file
 * opened by every process (AUTO_SERVER); on the PostgreSQL run, one schema.
 */
@Heavy
class CrashAndSharingTest {
    private static final String[] FAST = {"delivery.lease=PT3S", "delivery.timeout=PT1S", "delivery.poll-interval=PT0.1S",
            "delivery.retry-schedule=PT0.5S,PT0.5S,PT1S,PT1S,PT2S,PT2S,PT5S,PT5S"};

    @TempDir
    Path dir;

    /** Counts every message id the receiver was sent. */
    private static Function<Receiver.Request, Receiver.Answer> counting(Map<String, AtomicInteger> seen) {
        return r -> {
            seen.computeIfAbsent(r.header("X-Service-Event-Id"), k -> new AtomicInteger()).incrementAndGet();
            return Receiver.Answer.of(200);
        };
    }

    @Test
    void aServerKilledWithSigkillMidQueueLosesNoEventAfterRestart() throws Exception {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        try (Receiver a = new Receiver(); Receiver b = new Receiver(); SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", a), new SharedQueue.Subscription("invoice.create", b))) {
            a.answer(counting(seen));
            b.answer(r -> {
                try {
                    Thread.sleep(20);   // slower, so attempts are in flight when the kill lands
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return counting(seen).apply(r);
            });
            int events = 1500;
            s.publish(events);   // 3,000 deliveries queued
            Path log = dir.resolve("server.log");

            try (ServerProcess first = ServerProcess.start(s.db(), s.key(), log, FAST)) {
                first.awaitBaseUrl();
                Deliveries.await("the first server has sent some", () -> seen.size() >= 300);
                first.kill();
            }
            int beforeRestart = seen.size();
            assertTrue(beforeRestart < 2 * events, "killed before finishing: " + beforeRestart);

            try (ServerProcess again = ServerProcess.start(s.db(), s.key(), log, FAST)) {
                ServerProcess.awaitReadyLines(log, 2, again);   // the first server's line and its own
                Deliveries.await("every delivery made (" + seen.size() + " of " + 2 * events + ", log " + log + ")",
                        () -> seen.size() == 2 * events && s.count("delivered") == 2L * events);
            }
            assertEquals(0, s.count("pending"));
            assertEquals(0, s.count("dropped"));
        }
    }

    @Test
    void twoServersOnOneDatabaseSendEachMessageOnce() throws Exception {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        try (Receiver a = new Receiver(); Receiver b = new Receiver(); SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", a), new SharedQueue.Subscription("invoice", b))) {
            a.answer(counting(seen));
            b.answer(counting(seen));
            Path log = dir.resolve("servers.log");
            // Long leases: without a crash, no takeover may happen, so any duplicate is a double claim.
            String[] settings = {"delivery.lease=PT5M", "delivery.poll-interval=PT0.05S"};
            try (ServerProcess one = ServerProcess.start(s.db(), s.key(), log, settings);
                 ServerProcess two = ServerProcess.start(s.db(), s.key(), log, settings)) {
                ServerProcess.awaitAllReady(log, one, two);
                int events = 1000;
                s.publish(events);
                try {
                    Deliveries.await("all delivered (" + seen.size() + ")", () -> s.count("delivered") == 2L * events);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "; received " + seen.size() + ", delivered "
                            + s.count("delivered") + ", pending " + s.count("pending") + "; servers alive: "
                            + one.alive() + "/" + two.alive() + "; failed attempts: " + failedAttempts(s) + "; pending: " + pendingRows(s)
                            + "; end of the servers' log:\n" + tail(log), e);
                }
                assertEquals(2 * events, seen.size());
                var duplicated = seen.entrySet().stream().filter(e -> e.getValue().get() > 1).map(Map.Entry::getKey).toList();
                assertEquals(java.util.List.of(), duplicated, "sent more than once");
                long attempts = s.services().database().jdbi().withHandle(h -> h.createQuery(
                        "select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id where d.kind = 'event'").mapTo(Long.class).one());
                assertEquals(2L * events, attempts);
            }
        }
    }

    /** The callback of the set-up whose uri is the receiver's, set to ordered delivery as an operator does. */
    private static long ordered(SharedQueue s, Receiver r) {
        long id = s.services().database().jdbi().withHandle(h -> h.createQuery("select id from callbacks where uri = :uri")
                .bind("uri", r.uri()).mapTo(Long.class).one());
        assertTrue(s.services().operatorCallbacks().change(id, dev.ledgerlink.callbacks.OperatorSettings.none().withOrdered(true)).ordered());
        return id;
    }

    /** Keeps the object ids of the notifications in arrival order, answering 200 after {@code millis}. */
    private static Function<Receiver.Request, Receiver.Answer> inArrivalOrder(List<Long> arrived, long millis) {
        return r -> {
            arrived.add(Long.parseLong(r.param("object_id")));
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Receiver.Answer.of(200);
        };
    }

    /**
     * An ordered callback across a SIGKILL: what it receives never goes back to an earlier event (the
     * one in flight at the kill may come again, being at least once, but nothing after it came first).
     */
    @Test
    void anOrderedCallbackKeepsItsOrderAcrossASigkill() throws Exception {
        List<Long> arrived = new CopyOnWriteArrayList<>();
        try (Receiver a = new Receiver(); Receiver b = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", a), new SharedQueue.Subscription("invoice.create", b))) {
            a.answer(inArrivalOrder(arrived, 5));
            b.answer(r -> Receiver.Answer.of(200));
            ordered(s, a);
            int events = 150;
            s.publish(events);
            Path log = dir.resolve("ordered-kill.log");
            try (ServerProcess first = ServerProcess.start(s.db(), s.key(), log, FAST)) {
                first.awaitBaseUrl();
                Deliveries.await("the first server has sent some in order", () -> arrived.size() >= 30);
                first.kill();
            }
            try (ServerProcess again = ServerProcess.start(s.db(), s.key(), log, FAST)) {
                ServerProcess.awaitReadyLines(log, 2, again);   // the first server's line and its own
                Deliveries.await("every delivery made (" + arrived.size() + " of " + events + ", log " + log + ")",
                        () -> s.count("delivered") == 2L * events);
            }
            assertNondecreasingFromOneTo(events, arrived);
        }
    }

    /** Two servers on one database take turns on an ordered callback's deliveries, one at a time, in order. */
    @Test
    void twoServersOnOneDatabaseKeepAnOrderedCallbacksOrder() throws Exception {
        List<Long> arrived = new CopyOnWriteArrayList<>();
        try (Receiver a = new Receiver(); Receiver b = new Receiver();
             SharedQueue s = SharedQueue.create(dir, new SharedQueue.Subscription("invoice", a), new SharedQueue.Subscription("invoice", b))) {
            a.answer(inArrivalOrder(arrived, 2));
            b.answer(r -> Receiver.Answer.of(200));
            ordered(s, a);
            Path log = dir.resolve("ordered-servers.log");
            String[] settings = {"delivery.lease=PT5M", "delivery.poll-interval=PT0.05S"};
            try (ServerProcess one = ServerProcess.start(s.db(), s.key(), log, settings);
                 ServerProcess two = ServerProcess.start(s.db(), s.key(), log, settings)) {
                ServerProcess.awaitAllReady(log, one, two);
                int events = 150;
                s.publish(events);
                Deliveries.await("all delivered (" + arrived.size() + "; pending: " + pendingRows(s) + ")",
                        () -> s.count("delivered") == 2L * events);
                assertEquals(java.util.stream.LongStream.rangeClosed(1, events).boxed().toList(), arrived, "each once, in publish order");
            }
        }
    }

    /** Every object id from 1 to {@code last} arrived, and none after a later one (a repeat of the latest is at least once). */
    private static void assertNondecreasingFromOneTo(int last, List<Long> arrived) {
        for (int i = 1; i < arrived.size(); i++) {
            assertTrue(arrived.get(i) >= arrived.get(i - 1), "an earlier event after a later one at " + i + ": " + arrived);
        }
        assertEquals(java.util.stream.LongStream.rangeClosed(1, last).boxed().toList(), arrived.stream().distinct().toList());
    }

    private static String failedAttempts(SharedQueue s) {
        return s.services().database().jdbi().withHandle(h -> h.createQuery(
                "select coalesce(error, '') || ' ' || coalesce(cast(status_code as varchar), '-') || ' x' || cast(count(*) as varchar) "
                        + "from delivery_attempts where status_code is null or status_code >= 300 group by error, status_code")
                .mapTo(String.class).list()).toString();
    }

    private static String pendingRows(SharedQueue s) {
        return s.services().database().jdbi().withHandle(h -> h.createQuery(
                "select cast(id as varchar) || ':' || coalesce(lease_owner, 'free') || '@' || cast(next_attempt_at as varchar) || ' attempts=' || cast(attempts as varchar) "
                        + "from deliveries where state = 'pending' order by id limit 20")
                .mapTo(String.class).list()).toString();
    }

    private static String tail(Path log) {
        try {
            var lines = java.nio.file.Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (java.io.IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
