package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.Deliveries.await;
import static dev.ledgerlink.delivery.Deliveries.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.events.Event;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A publish leases its deliveries to this process's engine in its own transaction and hands them over
 * after the commit (DeliveryService.fanOut): sent without a claim pass, still durable rows that
 * another process takes over when the lease ends, and queued unleased when the engine has no room.
 */
@LedgerlinkTest
@ServerSettings({"delivery.retry-schedule=PT0.2S", "delivery.poll-interval=PT0.1S"})
class PublishHandoffTest {
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    @FreshServer   // counts exactly
    @ServerSettings({"delivery.poll-interval=PT1H"})   // no poll: only a wake-up or the hand-off can start a send
    void aPublishedEventIsSentByThisProcessWithoutAClaimPass(TestServer server) {
        long first = f.verified("invoice", receiver).id();
        long second = f.verified("invoice.create", receiver).id();
        f.verificationsRecorded(first);
        f.verificationsRecorded(second);
        receiver.clear();
        double claimedBefore = Deliveries.counter(server, "ledgerlink_deliveries_claimed_total");
        assertEquals(0.0, Deliveries.counter(server, "ledgerlink_deliveries_handed_off_total"));

        Event event = f.publish("invoice.create", 5);

        assertEquals(2, event.deliveries());
        assertEquals(2, receiver.await(2).size());
        await("both recorded delivered", () -> only(server.services(), first).state() == DeliveryState.DELIVERED
                && only(server.services(), second).state() == DeliveryState.DELIVERED);
        assertEquals(2.0, Deliveries.counter(server, "ledgerlink_deliveries_handed_off_total"));
        assertEquals(claimedBefore, Deliveries.counter(server, "ledgerlink_deliveries_claimed_total"), "no claim pass took them");
        assertEquals(1, only(server.services(), first).attempts().size());
    }

    @Test
    @FreshServer   // counts exactly
    @ServerSettings({"delivery.poll-interval=PT1H"})
    void sendsThatFinishWithNothingLeftInTheQueueRunNoClaimStatement(TestServer server) {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        await("the wake-up of the verification request passed", () -> Deliveries.counter(server, "ledgerlink_delivery_claim_passes_total") >= 1);
        double passes = Deliveries.counter(server, "ledgerlink_delivery_claim_passes_total");

        for (int i = 0; i < 10; i++) f.publish("invoice.create", 100 + i);

        receiver.await(10);
        await("all recorded delivered", () -> Deliveries.notifications(server.services(), id).stream()
                .filter(d -> d.state() == DeliveryState.DELIVERED).count() == 10);
        assertEquals(passes, Deliveries.counter(server, "ledgerlink_delivery_claim_passes_total"),
                "every delivery was handed off and nothing was left in the queue: no finished send looks there");
    }

    @Test
    @ServerSettings({"delivery.poll-interval=PT1H", "delivery.per-callback-concurrency=1"})   // no poll: only a wake-up can start them
    void rowsLeftInTheQueueForACallbackAtItsShareAreClaimedWhenOneOfItsSendsFinishes(TestServer server) throws Exception {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        CountDownLatch hold = answerOnceReleased(receiver);
        try {
            f.publish("invoice.create", 1);
            receiver.await(1);   // the callback's one share is held by this send until the latch opens
            f.publish("invoice.update", 2);
            f.publish("invoice.update", 3);
        } finally {
            hold.countDown();
        }
        receiver.await(3);
        await("all three delivered", () -> Deliveries.notifications(server.services(), id).size() == 3
                && Deliveries.notifications(server.services(), id).stream().allMatch(d -> d.state() == DeliveryState.DELIVERED));
    }

    @Test
    @ServerSettings({"delivery.concurrency=1", "delivery.per-callback-concurrency=1"})
    void withNoFreeSlotAPublishQueuesItsDeliveriesUnleasedAndTheEngineClaimsThemWhenOneFrees(TestServer server) throws Exception {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        CountDownLatch hold = answerOnceReleased(receiver);
        try {
            Event busy = f.publish("invoice.create", 1);
            receiver.await(1);   // the one slot is now held by this send until the latch opens
            Event queued = f.publish("invoice.update", 2);

            Row row = row(server, queued.id());
            assertNull(row.leaseOwner(), "no slot free: not leased to this engine");
            assertEquals("pending", row.state());
            assertNotNull(row(server, busy.id()).leaseOwner(), "the first is leased to the send in flight");
        } finally {
            hold.countDown();
        }
        receiver.await(2);
        await("both delivered", () -> Deliveries.notifications(server.services(), id).stream().allMatch(d -> d.state() == DeliveryState.DELIVERED)
                && Deliveries.notifications(server.services(), id).size() == 2);
    }

    @Test
    @ServerSettings({"delivery.lease=PT20S", "delivery.timeout=PT5S"})
    void rowsLeasedByAPublishWhoseProcessDiedBeforeSendingAreSentOnceTheLeaseEnds(TestServer server) {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        Instant now = DbTime.now(server.clock);
        // The publish's transaction, committed, with the hand-off never run: what a kill -9 between the
        // commit and the hand-off leaves.
        DeliveryService.Queued queued = server.services().database().jdbi().inTransaction(h -> {
            long eventId = h.createUpdate("""
                            insert into events (account_id, name, object_id, user_id, created_at)
                            values (:account, 'invoice.create', 77, :user, :now)""")
                    .bind("account", f.account().accountId()).bind("user", f.user().id()).bind("now", now)
                    .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
            return server.services().deliveries().fanOut(h, eventId, f.account().accountId(), "invoice.create", "invoice", now);
        });
        assertEquals(1, queued.deliveries());
        DeliveryRecord leased = only(server.services(), id);
        Row row = row(server, leased.eventId());
        assertNotNull(row.leaseOwner(), "leased to this engine in the insert");
        assertEquals(now.plus(Duration.ofSeconds(20)), row.nextAttemptAt(), "taken over only once the lease ends");
        assertTrue(receiver.requests.isEmpty());

        server.clock.advance(Duration.ofSeconds(21));
        assertEquals("object_id=77", receiver.await(1).getFirst().body().split("&")[1]);
        await("recorded delivered", () -> only(server.services(), id).state() == DeliveryState.DELIVERED);
        assertEquals(1, only(server.services(), id).attempts().size());
    }

    /** The receiver holds every request until the returned latch opens (30 s at most), then answers 200. */
    private static CountDownLatch answerOnceReleased(Receiver receiver) {
        CountDownLatch hold = new CountDownLatch(1);
        receiver.answer(r -> {
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Receiver.Answer.of(200);
        });
        return hold;
    }

    private record Row(String state, String leaseOwner, Instant nextAttemptAt) {}

    /** The one delivery of an event. */
    private static Row row(TestServer server, long eventId) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery(
                        "select state, lease_owner, next_attempt_at from deliveries where event_id = :id")
                .bind("id", eventId)
                .map((rs, ctx) -> new Row(rs.getString("state"), rs.getString("lease_owner"),
                        TimeMapping.read(rs, "next_attempt_at")))
                .one());
    }
}
