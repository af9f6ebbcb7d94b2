package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.Deliveries.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.callbacks.OperatorCallbacks;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Ordered delivery per callback (docs/delivery.md, "Order") against real receivers: one delivery at
 * a time in the order the events were accepted, a failing one holding back those after it; a
 * callback not ordered is not held back; verification requests are never held back.
 */
@LedgerlinkTest
@ServerSettings({"delivery.retry-schedule=PT1S,PT1S,PT1S", "delivery.poll-interval=PT0.1S"})
class OrderedDeliveryTest {
    private static final int EVENTS = 12;
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    /** Answers 500 to the first event notification it gets, 200 to everything else; keeps the object ids of the notifications in arrival order. */
    private static List<Long> failingTheFirstNotificationOnce(Receiver receiver) {
        List<Long> arrived = new CopyOnWriteArrayList<>();
        AtomicBoolean failed = new AtomicBoolean();
        receiver.answer(r -> {
            if (r.param("name").equals("callback.verify")) return Receiver.Answer.of(200);
            arrived.add(Long.parseLong(r.param("object_id")));
            return Receiver.Answer.of(failed.compareAndSet(false, true) ? 500 : 200);
        });
        return arrived;
    }

    private void setOrdered(long callbackId, boolean ordered) {
        assertEquals(ordered, server.services().operatorCallbacks().change(callbackId, dev.ledgerlink.callbacks.OperatorSettings.none().withOrdered(ordered)).ordered());
    }

    private void publishAll() {
        for (long i = 1; i <= EVENTS; i++) f.publish("invoice.create", i);
    }

    @Test
    void anOrderedCallbackGetsEveryEventInPublishOrderThoughTheFirstFailsOnce() {
        try (var ticking = server.clock.followRealTime()) {
            long id = f.verified("invoice", receiver).id();
            f.verificationsRecorded(id);
            setOrdered(id, true);
            List<Long> arrived = failingTheFirstNotificationOnce(receiver);

            publishAll();

            await("all " + EVENTS + " delivered (arrived " + arrived + ")", () -> Deliveries.notifications(server.services(), id).stream()
                    .allMatch(d -> d.state() == DeliveryState.DELIVERED) && arrived.size() == EVENTS + 1);
            List<Long> expected = new ArrayList<>(List.of(1L));   // the first, refused once, then sent again before any other
            LongStream.rangeClosed(1, EVENTS).forEach(expected::add);
            assertEquals(expected, arrived, "one at a time, in publish order, the failed one holding back the rest");
        }
    }

    /** The same receiver without the setting: the later events do not wait for the retry of the first (so the test above can fail). */
    @Test
    void aCallbackNotOrderedIsNotHeldBackByAFailingDelivery() {
        try (var ticking = server.clock.followRealTime()) {
            long id = f.verified("invoice", receiver).id();
            f.verificationsRecorded(id);
            List<Long> arrived = failingTheFirstNotificationOnce(receiver);

            publishAll();

            await("all " + EVENTS + " delivered", () -> Deliveries.notifications(server.services(), id).stream()
                    .allMatch(d -> d.state() == DeliveryState.DELIVERED) && arrived.size() == EVENTS + 1);
            long refused = arrived.getFirst();   // whichever came first
            assertNotEquals(1, arrived.subList(1, arrived.size()).indexOf(refused) + 1,
                    "the next ones went while the refused one waited for its retry: " + arrived);
        }
    }

    /**
     * Held back: while the first fails, the later ones wait parked (no next attempt), nothing of
     * theirs is sent; a verification request queued after them goes at once.
     */
    @Test
    void aVerificationRequestIsNotHeldBackByAnOrderedCallbacksFailingDelivery() {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        setOrdered(id, true);
        receiver.answer(r -> Receiver.Answer.of(r.param("name").equals("callback.verify") ? 200 : 503));
        receiver.clear();

        publishAll();   // the clock stands still: the first one's retry never falls due

        await("the first attempted", () -> Deliveries.notifications(server.services(), id).stream().anyMatch(d -> d.attemptCount() == 1));
        List<DeliveryRecord> pending = Deliveries.notifications(server.services(), id);
        assertEquals(EVENTS, pending.size());
        assertTrue(pending.stream().allMatch(d -> d.state() == DeliveryState.PENDING), pending.toString());
        DeliveryRecord first = pending.getLast();
        assertEquals(1, first.attemptCount());
        List<DeliveryRecord> later = pending.subList(0, EVENTS - 1);
        for (DeliveryRecord d : later) {
            assertEquals(0, d.attemptCount(), "held back: " + d);
            if (d.waitsForEarlier()) assertNull(DeliveryJson.of(d).get("next_attempt_at"), "no attempt is scheduled while it waits");
        }
        // Parked, but for the one queued while the first was in flight: due, and held back by the claim's rule alone.
        assertTrue(later.stream().filter(d -> !d.waitsForEarlier()).count() <= 1, later.toString());

        // A verification request queued behind them (as a resend queues one; a resend itself would
        // hold the events for the re-keying, and there would be nothing pending to hold it back).
        server.services().database().jdbi().useTransaction(h ->
                new CallbackDeliveries(new DeliveryOrder(java.time.Duration.ofMinutes(1))).enqueueVerification(h, id, dev.ledgerlink.store.DbTime.now(server.clock)));   // due now, to the microsecond the database keeps
        server.services().deliveries().enqueued();
        Receiver.Request verification = Fixtures.verificationRequest(id, receiver);
        assertTrue(verification.param("object_id").equals(Long.toString(id)));
        assertEquals(1, receiver.requests.stream().filter(r -> !r.param("name").equals("callback.verify")).count(),
                "only the first notification was sent: " + receiver.requests);
    }

    /** Turned off, the deliveries that waited are due at once, without waiting for the one being retried. */
    @Test
    void turningOrderedOffLetsTheWaitingDeliveriesGo() {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        setOrdered(id, true);
        AtomicBoolean refuse = new AtomicBoolean(true);
        receiver.answer(r -> Receiver.Answer.of(r.param("name").equals("callback.verify") || !refuse.get() ? 200 : 503));
        publishAll();   // the clock stands still: the first one's retry never falls due
        await("the first attempted", () -> Deliveries.notifications(server.services(), id).stream().anyMatch(d -> d.attemptCount() == 1));
        refuse.set(false);

        setOrdered(id, false);

        await("the held back ones delivered", () -> Deliveries.notifications(server.services(), id).stream()
                .filter(d -> d.state() == DeliveryState.DELIVERED).count() == EVENTS - 1);
        DeliveryRecord first = Deliveries.notifications(server.services(), id).getLast();
        assertEquals(DeliveryState.PENDING, first.state(), "the first still waits for its retry");
        assertEquals(List.of(), Deliveries.notifications(server.services(), id).stream().filter(DeliveryRecord::waitsForEarlier).toList());
    }

    /**
     * Turned on while deliveries of it wait for their retries: they line up in id order behind the
     * first, which is due once a lease's length has passed (an attempt claimed before the change
     * has ended by then), then they go one at a time in order.
     */
    @Test
    void turningOrderedOnLinesUpWhatIsAlreadyQueued() {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        AtomicBoolean refuse = new AtomicBoolean(true);
        List<Long> arrived = new CopyOnWriteArrayList<>();
        receiver.answer(r -> {
            if (r.param("name").equals("callback.verify")) return Receiver.Answer.of(200);
            if (!refuse.get()) arrived.add(Long.parseLong(r.param("object_id")));
            return Receiver.Answer.of(refuse.get() ? 503 : 200);
        });
        publishAll();   // not ordered yet: each is tried at once and refused; the clock stands still
        await("each tried once and waiting for its retry", () -> Deliveries.notifications(server.services(), id).stream()
                .filter(d -> d.attemptCount() == 1).count() == EVENTS && server.services().deliveryReads()
                .history(null, id, 1, 100).deliveries().stream().allMatch(d -> d.state() != DeliveryState.PENDING || d.attemptCount() == 1));
        refuse.set(false);

        setOrdered(id, true);

        List<DeliveryRecord> lined = Deliveries.notifications(server.services(), id);
        assertEquals(dev.ledgerlink.store.DbTime.now(server.clock).plusSeconds(60), lined.getLast().nextAttemptAt(), "due a lease (60 s) from now");
        assertTrue(lined.subList(0, EVENTS - 1).stream().allMatch(DeliveryRecord::waitsForEarlier), lined.toString());
        server.clock.advance(java.time.Duration.ofSeconds(61));
        await("all delivered (arrived " + arrived + ")", () -> Deliveries.notifications(server.services(), id).stream()
                .allMatch(d -> d.state() == DeliveryState.DELIVERED));
        assertEquals(LongStream.rangeClosed(1, EVENTS).boxed().toList(), arrived);
    }

    /**
     * Turned on while several attempts of the callback are in flight: none of what waits goes before
     * those have ended (the first of it is due a lease later; an attempt never outlives its lease),
     * then one at a time, in order.
     */
    @Test
    void turningOrderedOnWhileAttemptsAreInFlightNeverLetsTwoGoAtOnce() throws Exception {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        AtomicBoolean ordered = new AtomicBoolean();
        List<String> overlaps = new CopyOnWriteArrayList<>();
        List<Long> afterwards = new CopyOnWriteArrayList<>();
        receiver.answer(r -> {
            if (r.param("name").equals("callback.verify")) return Receiver.Answer.of(200);
            long object = Long.parseLong(r.param("object_id"));
            int others = inFlight.getAndIncrement();
            if (ordered.get()) {
                afterwards.add(object);
                if (others > 0) overlaps.add(object + " began while " + others + " were in flight");
            }
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inFlight.decrementAndGet();
            }
            return Receiver.Answer.of(200);
        });
        f.publish("invoice.create", 1);
        f.publish("invoice.create", 2);
        await("two in flight", () -> inFlight.get() == 2);
        ordered.set(true);
        setOrdered(id, true);
        for (long i = 3; i <= EVENTS; i++) f.publish("invoice.create", i);

        release.countDown();
        await("the two in flight delivered", () -> Deliveries.notifications(server.services(), id).stream()
                .filter(d -> d.state() == DeliveryState.DELIVERED).count() >= 2);   // the next may follow at once: == 2 can be missed between polls
        server.clock.advance(java.time.Duration.ofSeconds(61));   // past the lease the attempts in flight were claimed under
        await("all delivered (after the change: " + afterwards + ")", () -> Deliveries.notifications(server.services(), id).stream()
                .allMatch(d -> d.state() == DeliveryState.DELIVERED));
        assertEquals(List.of(), overlaps);
        assertEquals(LongStream.rangeClosed(3, EVENTS).boxed().toList(), afterwards);
    }
}
