package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Re-keying loses nothing (decisions.md, "Callbacks"): a verified callback whose code is resent
 * stays subscribed; what it is sent meanwhile (and the retries pending at the resend) is held, shown
 * as waiting for verification, and sent signed with the new code once that code is verified; held
 * deliveries no verification releases within the disable period are dropped as not re-verified, and
 * recover brings them back. Everything over HTTP: the callbacks API, the publishing endpoint, the
 * history, to a real receiver. Retries are an hour apart, so a delivery sent right after the
 * verification was released by it, not by its schedule. RekeyingCrashTest kills the server between
 * the resend and the verification.
 */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + RekeyingTest.KEY, "delivery.retry-schedule=PT1H,PT1H,PT1H", "delivery.poll-interval=PT0.1S"})
class RekeyingTest {
    static final String KEY = "rekeying-operator-key-0123456789";

    TestServer server;
    Receiver receiver;
    Fixtures f;
    CallbackApi api;

    @BeforeEach
    void start() {
        api = CallbackApi.of(f, "user:invoices:read");
    }

    /** Registered and verified over HTTP; the code it was verified with. */
    private String registerAndVerify(long[] idOut, Receiver to) {
        long id = api.registerId("invoice", to.uri());
        idOut[0] = id;
        String code = Fixtures.verificationRequest(id, to).param("verifier");
        assertEquals(200, api.verify(id, code).status());
        return code;
    }

    /** A resend over HTTP: the response shows the callback unverified; returns the new code the receiver was sent. */
    private String resend(long id, Receiver to) {
        TestHttp.Response r = api.resend(id);
        assertEquals(200, r.status(), r.body());
        assertFalse(CallbackApi.record(r).get("verified").asBoolean(), "unverified until the new code comes back");
        return Fixtures.verificationRequest(id, to).param("verifier");
    }

    /** Publishes over the internal endpoint; how many deliveries the response says it made. */
    private int publish(long objectId) {
        TestHttp.Response r = server.http.postJson("/internal/v1/events", "{\"name\": \"invoice.create\", \"account_id\": \""
                + f.account().accountId() + "\", \"object_id\": " + objectId + ", \"user_id\": " + f.user().id() + "}", "Authorization", "Bearer " + KEY);
        assertEquals(202, r.status(), r.body());
        return r.json().at("/event/deliveries").asInt();
    }

    /** The callback's event deliveries as its history (the API) shows them, newest first. */
    private List<JsonNode> history(long id) {
        TestHttp.Response r = server.http.get(api.path() + "/" + id + "/deliveries?per_page=100", "Authorization", "Bearer " + api.token,
                "Api-Version", "alpha");
        assertEquals(200, r.status(), r.body());
        List<JsonNode> events = new ArrayList<>();
        for (JsonNode d : r.json().at("/response/result/deliveries")) if (d.get("kind").asText().equals("event")) events.add(d);
        return events;
    }

    private List<String> states(long id) {
        return history(id).stream().map(d -> d.get("state").asText()).toList();
    }

    private static boolean signedWith(String code, Receiver.Request r) {
        return ServiceSignature.verify(code, r.body(), r.signature())
                && StandardWebhooks.verify(code, r.header(StandardWebhooks.ID), r.header(StandardWebhooks.TIMESTAMP), r.body(),
                r.header(StandardWebhooks.SIGNATURE), Instant.ofEpochSecond(Long.parseLong(r.header(StandardWebhooks.TIMESTAMP))), Duration.ofMinutes(5));
    }

    private static boolean isEvent(Receiver.Request r) {
        return "invoice.create".equals(r.param("name"));
    }

    @Test
    void whatIsPublishedAndPendingDuringReKeyingIsHeldThenSentWithTheNewCode() {
        try (var ticking = server.clock.followRealTime()) {
            long[] id = new long[1];
            String oldCode = registerAndVerify(id, receiver);
            AtomicInteger events = new AtomicInteger();
            // The first notification fails: its retry is pending (an hour away) when the code is resent.
            receiver.answer(r -> Receiver.Answer.of(isEvent(r) && events.incrementAndGet() == 1 ? 500 : 200));
            assertEquals(1, publish(1));
            Eventually.await("the failed attempt is recorded", () -> history(id[0]).size() == 1
                    && history(id[0]).getFirst().get("attempt_count").asInt() == 1);

            String newCode = resend(id[0], receiver);
            assertNotEquals(oldCode, newCode);
            assertEquals(List.of("held"), states(id[0]), "the pending retry is held, not dropped");
            assertEquals(1, publish(2), "still subscribed: the publish counts its held delivery");
            List<JsonNode> held = history(id[0]);
            assertEquals(List.of("held", "held"), held.stream().map(d -> d.get("state").asText()).toList());
            for (JsonNode d : held) {
                assertEquals("waiting for verification", d.get("state_description").asText());
                assertTrue(d.get("next_attempt_at").isNull(), "no attempt is scheduled while held");
            }
            assertEquals(0, held.getFirst().get("attempt_count").asInt(), "nothing of the held event was sent");
            String listed = ServerCli.run(server, "deliveries", "list", "--callback", Long.toString(id[0]), "--state", "held").out();
            assertEquals(2, listed.lines().filter(l -> l.contains("waiting for verification")).count(), listed);

            assertEquals(200, api.verify(id[0], newCode).status());
            Eventually.await("both held deliveries delivered", () -> states(id[0]).equals(List.of("delivered", "delivered")));
            List<Receiver.Request> sent = receiver.await(3, RekeyingTest::isEvent);
            assertEquals(3, sent.size(), "object 1 twice (the failure, then with the new code), object 2 once");
            assertTrue(signedWith(oldCode, sent.getFirst()), "the attempt before the resend used the old code");
            for (Receiver.Request r : sent.subList(1, 3)) {
                assertTrue(signedWith(newCode, r), "sent after the verification, signed with the new code: " + r.body());
                assertFalse(signedWith(oldCode, r));
            }
            assertEquals(List.of("2", "1"), sent.subList(1, 3).stream().map(r -> r.param("object_id")).sorted(java.util.Comparator.reverseOrder()).toList());
            JsonNode retried = history(id[0]).getLast();
            assertEquals(2, retried.get("attempt_count").asInt(), "its retry went on from its first attempt");
            assertEquals(sent.getFirst().header("X-Service-Event-Id"), "msg_" + retried.get("id").asLong(), "the same message id");
            assertTrue(CallbackApi.record(api.get(id[0])).get("verified").asBoolean());
        }
    }

    @Test
    void aPublishCountsHeldDeliveriesAndAVerifiedCallbackIsNotHeldBack() {
        try (var ticking = server.clock.followRealTime(); Receiver other = new Receiver()) {
            long[] rekeying = new long[1];
            long[] verified = new long[1];
            registerAndVerify(rekeying, receiver);
            registerAndVerify(verified, other);
            String newCode = resend(rekeying[0], receiver);

            assertEquals(2, publish(3), "one delivery each, the re-keying callback's held");
            assertEquals("3", other.await(1, RekeyingTest::isEvent).getFirst().param("object_id"));
            Eventually.await("the verified one's delivered", () -> states(verified[0]).equals(List.of("delivered")));
            assertEquals(List.of("held"), states(rekeying[0]));

            assertEquals(200, api.verify(rekeying[0], newCode).status());
            assertTrue(signedWith(newCode, receiver.await(1, RekeyingTest::isEvent).getFirst()));
        }
    }

    @Test
    void aCallbackNeverVerifiedGetsOnlyVerificationRequestsAndADisabledOneNothing() {
        long neverVerified = api.registerId("invoice", receiver.uri());
        resend(neverVerified, receiver);
        long[] disabled = new long[1];
        registerAndVerify(disabled, receiver);
        server.services().operatorCallbacks().disable(disabled[0]);

        assertEquals(0, publish(4), "neither is subscribed");
        assertEquals(List.of(), history(neverVerified));
        assertEquals(List.of(), history(disabled[0]));
        assertEquals(2, server.services().deliveryReads().history(null, neverVerified, 1, 100).total(), "its two verification requests only");
    }

    /**
     * A delivery redelivered while its callback re-keys goes back to the queue, and the engine, which
     * claims it, holds it instead of sending it with a code nobody has verified.
     */
    @Test
    void aDeliveryRedeliveredDuringReKeyingIsHeldByTheEngineUntilVerified() {
        try (var ticking = server.clock.followRealTime()) {
            long[] id = new long[1];
            registerAndVerify(id, receiver);
            assertEquals(1, publish(8));
            Eventually.await("delivered", () -> states(id[0]).equals(List.of("delivered")));
            receiver.clear();
            String newCode = resend(id[0], receiver);

            long delivery = history(id[0]).getFirst().get("id").asLong();
            server.services().deliveries().redeliver(delivery);
            Eventually.await("held again by the engine", () -> states(id[0]).equals(List.of("held")));
            assertEquals(0, receiver.requests.stream().filter(RekeyingTest::isEvent).count(), "nothing sent with the unverified code");

            assertEquals(200, api.verify(id[0], newCode).status());
            assertTrue(signedWith(newCode, receiver.await(1, RekeyingTest::isEvent).getFirst()));
        }
    }

    /**
     * A publish that read its callback as re-keying just before the verification committed inserts a
     * held row the verification did not release (the race, written here as its outcome): the
     * dispatcher's pass sends it with the new code all the same.
     */
    @Test
    void aHeldRowThatRacedTheVerificationIsSentAllTheSame() {
        try (var ticking = server.clock.followRealTime()) {
            long[] id = new long[1];
            String code = registerAndVerify(id, receiver);
            receiver.answer(r -> Receiver.Answer.of(isEvent(r) ? 500 : 200));   // the delivery stays pending: retried in an hour
            assertEquals(1, publish(9));
            Eventually.await("the failed attempt is recorded", () -> history(id[0]).getFirst().get("attempt_count").asInt() == 1);
            receiver.answer(r -> Receiver.Answer.of(200));
            server.services().database().jdbi().useHandle(h -> h.execute(
                    "update deliveries set state = 'held', lease_owner = null where callback_id = ? and kind = 'event'", id[0]));
            Eventually.await("released and delivered", () -> states(id[0]).equals(List.of("delivered")));
            assertTrue(signedWith(code, receiver.await(2, RekeyingTest::isEvent).get(1)));
        }
    }

    @Test
    void aRetryHeldByADisabledCallbackIsDroppedWithIt() {
        try (var ticking = server.clock.followRealTime()) {
            long[] id = new long[1];
            registerAndVerify(id, receiver);
            resend(id[0], receiver);
            assertEquals(1, publish(5));
            server.services().operatorCallbacks().disable(id[0]);
            JsonNode d = history(id[0]).getFirst();
            assertEquals("dropped", d.get("state").asText());
            assertTrue(d.get("drop_reason").asText().contains("operator"), d.toString());
        }
    }

    /**
     * The disable period (a minute here) passes without the new code: the held delivery is dropped as
     * not re-verified, the callback is plainly unverified (publishes skip it), and once verified,
     * recover sends the dropped delivery with the code.
     */
    @Test
    @ServerSettings({"events.operator-key=" + RekeyingTest.KEY, "delivery.retry-schedule=PT1H", "delivery.poll-interval=PT0.1S",
            "delivery.disable-after=PT1M"})
    void heldDeliveriesNotReleasedWithinTheDisablePeriodAreDroppedAndRecoverBringsThemBack() {
        long[] id = new long[1];
        registerAndVerify(id, receiver);
        Instant before = server.clock.instant();
        String newCode = resend(id[0], receiver);
        assertEquals(1, publish(6));
        assertEquals(List.of("held"), states(id[0]));

        server.clock.advance(Duration.ofSeconds(61));
        Eventually.await("the held delivery dropped", () -> states(id[0]).equals(List.of("dropped")));
        JsonNode dropped = history(id[0]).getFirst();
        assertTrue(dropped.get("drop_reason").asText().startsWith("not re-verified"), dropped.toString());
        assertEquals(0, dropped.get("attempt_count").asInt());
        assertEquals(0, publish(7), "no longer subscribed once the re-keying lapsed");

        String since = before.minusSeconds(60).toString();
        String path = api.path() + "/" + id[0] + "/recover";
        String[] auth = {"Authorization", "Bearer " + api.token, "Api-Version", "alpha"};
        assertEquals(409, server.http.postJson(path, "{\"since\": \"" + since + "\"}", auth).status(), "not verified: nothing to send it with");
        assertEquals(200, api.verify(id[0], newCode).status(), "the resent code still verifies it");
        TestHttp.Response recovered = server.http.postJson(path, "{\"since\": \"" + since + "\"}", auth);
        assertEquals(200, recovered.status(), recovered.body());
        assertEquals(1, recovered.json().at("/response/result/requeued").asInt(), recovered.body());
        Receiver.Request sent = receiver.await(1, RekeyingTest::isEvent).getFirst();
        assertEquals("6", sent.param("object_id"));
        assertTrue(signedWith(newCode, sent));
        Eventually.await("delivered", () -> states(id[0]).equals(List.of("delivered")));
    }
}
