package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.Deliveries.await;
import static dev.ledgerlink.delivery.Deliveries.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine against real receivers on loopback, with a shortened retry schedule. Callbacks are
 * registered and verified through the callbacks service (the receiver answers the handshake); the
 * class shares one server, and a test with other delivery settings gets its own.
 */
@LedgerlinkTest
@ServerSettings({"delivery.retry-schedule=PT0.2S", "delivery.timeout=PT10S", "delivery.disable-after=P5D", "delivery.poll-interval=PT0.1S"})
class DeliveryEngineTest {
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    @ServerSettings({"delivery.retry-schedule=PT0.2S,PT0.2S,PT0.2S", "delivery.poll-interval=PT0.1S"})
    void failedAttemptsAreRetriedWithTheSameMessageIdUntilOneSucceeds(TestServer server) {
        try (var ticking = server.clock.followRealTime()) {
            long id = f.verified("invoice.create", receiver).id();
            receiver.clear();
            AtomicInteger calls = new AtomicInteger();
            receiver.answer(r -> Receiver.Answer.of(switch (calls.incrementAndGet()) {
                case 1 -> 500;
                case 2 -> 302;
                default -> 204;
            }));
            f.publish("invoice.create", 7);
            var requests = receiver.await(3);
            assertEquals(1, requests.stream().map(r -> r.header("X-Service-Event-Id")).distinct().count());
            await("delivered", () -> only(server.services(), id).state() == DeliveryState.DELIVERED);
            DeliveryRecord d = only(server.services(), id);
            assertEquals(3, d.attempts().size());
            assertEquals(500, d.attempts().get(0).statusCode());
            assertEquals(302, d.attempts().get(1).statusCode());
            assertEquals(204, d.attempts().get(2).statusCode());
            assertNull(failingSince(server, id), "a success ends the run of failures");
        }
    }

    @Test
    @ServerSettings({"delivery.retry-schedule=PT0.2S,PT0.2S", "delivery.timeout=PT1S", "delivery.poll-interval=PT0.1S"})
    void serverErrorsRedirectsTimeoutsAndRefusedConnectionsAreRetriedThenDropped(TestServer server) {
        try (var ticking = server.clock.followRealTime(); Receiver redirecting = new Receiver(); Receiver slow = new Receiver()) {
            Receiver failing = receiver;
            long c500 = f.verified("invoice", failing).id();
            long c301 = f.verified("invoice", redirecting).id();
            long cSlow = f.verified("invoice", slow).id();
            long cRefused;
            try (Receiver gone = new Receiver()) {
                cRefused = f.verified("invoice", gone).id();
            }   // the endpoint went away after it verified: its port now refuses connections
            failing.answer(r -> Receiver.Answer.of(500));
            redirecting.answer(r -> new Receiver.Answer(301, Map.of("Location", failing.uri()), Duration.ZERO));
            slow.answer(r -> new Receiver.Answer(200, Map.of(), Duration.ofSeconds(3)));
            f.publish("invoice.update", 1);

            for (long id : new long[] {c500, c301, cSlow, cRefused}) {
                await("callback " + id + " dropped", () -> only(server.services(), id).state() == DeliveryState.DROPPED);
                DeliveryRecord d = only(server.services(), id);
                assertEquals(3, d.attempts().size(), "three attempts: the first and two retries");
                assertTrue(d.dropReason().contains("3 attempts"), d.dropReason());
            }
            assertEquals(500, only(server.services(), c500).attempts().getFirst().statusCode());
            assertEquals(301, only(server.services(), c301).attempts().getFirst().statusCode());
            assertEquals(0, failing.requests.stream().filter(r -> ("msg_" + only(server.services(), c301).id()).equals(r.header("X-Service-Event-Id"))).count(),
                    "the redirect is not followed");
            assertNull(only(server.services(), cSlow).attempts().getFirst().statusCode());
            assertTrue(only(server.services(), cSlow).attempts().getFirst().error().contains("timed out"));
            assertTrue(only(server.services(), cRefused).attempts().getFirst().error().contains("refused"),
                    only(server.services(), cRefused).attempts().getFirst().error());
            assertNotNull(failingSince(server, c500));
        }
    }

    @Test
    @ServerSettings({"delivery.retry-schedule=PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S", "delivery.disable-after=PT0.5S",
            "delivery.poll-interval=PT0.1S"})
    void aCallbackFailingForTheWholeWindowIsDisabledAndResendReenablesIt(TestServer server) {
        try (var ticking = server.clock.followRealTime()) {
            long id = f.verified("invoice", receiver).id();
            f.verificationsRecorded(id);
            receiver.answer(r -> Receiver.Answer.of(503));
            f.publish("invoice.create", 1);
            await("disabled", () -> f.callback(id).disabled());
            DeliveryRecord d = only(server.services(), id);
            await("dropped", () -> only(server.services(), id).state() == DeliveryState.DROPPED);
            assertTrue(only(server.services(), id).dropReason().contains("disabled"), only(server.services(), id).dropReason());
            assertTrue(d.attempts().size() < 9, "dropped by the disable, before the schedule ran out");
            assertEquals(0, f.publish("invoice.create", 2).deliveries(), "a disabled callback gets nothing");

            receiver.answer(r -> Receiver.Answer.of(200));
            f.resend(id);   // what PUT callback.resend does: enabled again, unverified, a new code sent
            assertFalse(f.callback(id).disabled());
            var again = f.verify(id, receiver);
            long next = f.publish("invoice.create", 3).id();
            Receiver.Request r = receiver.await(1, q -> q.body().contains("object_id=3")).getFirst();
            assertTrue(ServiceSignature.verify(again.code(), r.body(), r.header(ServiceSignature.HEADER)));
            assertTrue(next > 0);
        }
    }

    @Test
    @ServerSettings({"delivery.concurrency=8", "delivery.per-callback-concurrency=2",   // what the engine's quarter-of-the-total cap gives
            "delivery.poll-interval=PT0.1S", "delivery.timeout=PT60S", "delivery.lease=PT120S"})
    void aHangingEndpointDoesNotHoldUpAnotherEndpointsDeliveries() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Receiver healthy = new Receiver()) {
            Receiver hanging = receiver;
            f.verified("invoice", hanging);
            f.verified("client", healthy);
            hanging.clear();
            healthy.clear();
            hanging.answer(r -> answerAfter(release));
            for (int i = 1; i <= 30; i++) f.publish("invoice.create", i);
            hanging.await(2);
            for (int i = 1; i <= 30; i++) f.publish("client.create", i);

            healthy.await(30);
            assertTrue(hanging.requests.size() <= 2, "the hanging endpoint holds at most its share (2 of 8): " + hanging.requests.size());
            release.countDown();
            hanging.await(30);
        } finally {
            release.countDown();
        }
    }

    @Test
    @ServerSettings({"delivery.concurrency=16", "delivery.per-callback-concurrency=2",
            "delivery.poll-interval=PT0.1S", "delivery.timeout=PT60S", "delivery.lease=PT120S"})
    void manyHangingEndpointsTogetherStillLeaveSlotsForHealthyOnes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // 16 slots, 2 per callback: four hanging endpoints hold 8; a quarter each (4) would hold all 16.
        try (Receiver healthy = new Receiver()) {
            Receiver hanging = receiver;
            for (int i = 0; i < 4; i++) f.verified("invoice", hanging, hanging.uri() + "?h" + i);
            f.verified("client", healthy);
            hanging.clear();
            healthy.clear();
            hanging.answer(r -> answerAfter(release));
            for (int i = 1; i <= 20; i++) f.publish("invoice.create", i);
            hanging.await(8);
            for (int i = 1; i <= 30; i++) f.publish("client.create", i);

            healthy.await(30);
            assertTrue(hanging.requests.size() <= 8, "each hanging endpoint holds at most 2 slots: " + hanging.requests.size());
            release.countDown();
        } finally {
            release.countDown();
        }
    }

    @Test
    void deliveriesOfAnUnverifiedOrDeletedCallbackAreNotSent() {
        long unverified = f.verified("invoice", receiver, receiver.uri() + "?u").id();
        long deleted = f.verified("invoice", receiver, receiver.uri() + "?d").id();
        f.verificationsRecorded(unverified);
        f.verificationsRecorded(deleted);
        receiver.clear();
        receiver.answer(r -> Receiver.Answer.of(500));
        f.publish("invoice.create", 5);
        receiver.await(2);
        // A new uri: unverified again until its code comes back, and nothing queued follows it there.
        server.services().callbacks().update(f.principal(), f.account().accountId(), unverified, null, receiver.uri() + "?u2");
        f.delete(deleted);
        try (var ticking = server.clock.followRealTime()) {
            await("dropped at send time", () -> only(server.services(), unverified).state() == DeliveryState.DROPPED);
        }
        assertTrue(only(server.services(), unverified).dropReason().contains("verified"));
        assertEquals(1, only(server.services(), unverified).attempts().size());
        assertEquals(0L, (long) server.services().database().jdbi().withHandle(h ->
                h.createQuery("select count(*) from deliveries where callback_id = :id").bind("id", deleted).mapTo(Long.class).one()));
    }

    /**
     * A callback verified while the database was served in development mode, an http one to a loopback
     * address, meets a server that is not: outside development mode an http callback is never sent,
     * whatever was registered before; the refusal is recorded as a failed attempt, no connection made.
     */
    @Test
    void outsideDevModeAnHttpCallbackRegisteredInDevModeIsNeverSent(@TempDir Path dir) {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = dev.ledgerlink.secrets.SecretBox.newKeyBase64();
        long id;
        Fixtures dev;
        try (TestServer devServer = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, key).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"))) {
            dev = Fixtures.create(devServer);
            id = dev.verified("invoice", receiver).id();
            dev.verificationsRecorded(id);
        }
        receiver.clear();
        try (TestServer production = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, key).set(Setting.DEV, "false")
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S").set(Setting.OPERATOR_KEY, "k"))) {
            production.services().events().publish(new dev.ledgerlink.events.EventPublisher.Request(
                    "invoice.create", dev.account().accountId(), 1L, dev.user().id(), null));
            await("an attempt is recorded", () -> !only(production.services(), id).attempts().isEmpty());
            DeliveryRecord.Attempt a = only(production.services(), id).attempts().getFirst();
            assertNull(a.statusCode());
            assertTrue(a.error().startsWith("refused: http to 127.0.0.1: must use https"), a.error());
            assertTrue(receiver.requests.isEmpty());
        }
    }

    /**
     * The one address gate is asked again right before each attempt: a host name that resolved to a
     * public address when its callback was registered, and to a private one when the verification
     * request is sent (DNS rebinding), is refused at send time without a connection, and the refusal
     * is recorded as the attempt's outcome, retried on the schedule like any failure.
     */
    @Test
    void aHostThatResolvesToAPrivateAddressAtSendTimeIsRefusedAndTheAttemptRecorded() {
        List<String> asked = new CopyOnWriteArrayList<>();
        PublicAddressGate.Resolver rebinding = host -> {
            asked.add(host);
            return new InetAddress[] {InetAddress.getByName(asked.size() == 1 ? "93.184.216.34" : "10.0.0.1")};
        };
        try (TestServer production = TestServer.start(s -> s.set(Setting.DEV, "false").set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"), rebinding)) {
            Fixtures pf = Fixtures.create(production, "https://app.example.com/cb");
            long id = pf.register("invoice", "https://hooks.example.com/in").id();
            await("the attempt is recorded", () -> !verificationOf(production, id).attempts().isEmpty());
            DeliveryRecord d = verificationOf(production, id);
            DeliveryRecord.Attempt a = d.attempts().getFirst();
            assertNull(a.statusCode());
            assertEquals("refused: the host hooks.example.com resolves to a non-public address (10.0.0.1, private-use)", a.error());
            assertEquals(DeliveryState.PENDING, d.state(), "a retry is scheduled, as for any failed attempt");
            assertEquals(List.of("hooks.example.com", "hooks.example.com"), asked, "resolved when registered, and again when sent");
        }
    }

    private static DeliveryRecord verificationOf(TestServer server, long callbackId) {
        List<DeliveryRecord> all = server.services().deliveryReads().history(null, callbackId, 1, 10).deliveries();
        assertEquals(1, all.size(), "the verification request only");
        return all.getFirst();
    }

    @Test
    @FreshServer   // counts exactly: no other test's deliveries on this server
    void outcomesAreCountedInTheMetrics(TestServer server) {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        double before = Deliveries.counter(server, "ledgerlink_deliveries_delivered_total");
        assertEquals(1.0, before, "the verification request of the set-up");
        f.publish("invoice.create", 1);
        receiver.await(2);
        await("counted", () -> Deliveries.counter(server, "ledgerlink_deliveries_delivered_total") == before + 1);
        String metrics = server.http.get("/metrics").body();
        for (String name : new String[] {"ledgerlink_deliveries_failed_total", "ledgerlink_deliveries_dropped_total",
                "ledgerlink_callbacks_disabled_total", "ledgerlink_deliveries_queue_depth", "ledgerlink_delivery_attempt_seconds_count"}) {
            assertTrue(metrics.contains(name), name);
        }
    }

    private static java.time.Instant failingSince(TestServer server, long id) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery("select failing_since from callbacks where id = :id")
                .bind("id", id).mapTo(java.time.Instant.class).one());
    }

    /** An endpoint that hangs until the test releases it, then answers 200. */
    private static Receiver.Answer answerAfter(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Receiver.Answer.of(200);
    }
}
