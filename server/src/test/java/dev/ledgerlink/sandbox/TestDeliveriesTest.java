package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.CallbackApi;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.NodeReceiver;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Test deliveries (docs/sandbox.md, "Test deliveries"): what the test-event route's delivery options
 * send, as a real receiver written with the Standard Webhooks reference library sees it, described
 * as received: a tampered signature fails its verification, a stale one fails only the timestamp
 * tolerance, copies arrive N times under one id, several events arrive in the order asked for.
 */
@LedgerlinkTest
@Heavy
class TestDeliveriesTest {
    static TestServer server;
    static NodeReceiver node;
    Fixtures f;
    Receiver receiver;

    @BeforeAll
    static void startTheNodeReceiver() {
        node = new NodeReceiver();
    }

    @AfterAll
    static void stopIt() {
        node.close();
    }

    private String token() {
        return f.issue(Set.of("user:invoices:read", "user:clients:read")).accessToken();
    }

    private TestHttp.Response fire(String token, String json) {
        return server.http.postJson("/events/account/" + f.account().accountId() + "/events/test", json, "Authorization", "Bearer " + token);
    }

    /** A callback to its own path of the Node receiver, verified with the code the receiver got, as an app does. */
    private long nodeCallback(String token, String path) {
        long id = new CallbackApi(server, f.account().accountId(), token).registerId("invoice", node.uri(path));
        JsonNode verify = node.next(path);
        assertEquals("callback.verify", verify.get("name").asText());
        assertTrue(verify.get("authentic").asBoolean(), "a verification request is signed with its own code: " + verify);
        assertEquals(200, new CallbackApi(server, f.account().accountId(), token).verify(id, verify.get("verifier").asText()).status());
        return id;
    }

    private List<DeliveryRecord> history(long callbackId) {
        return server.services().deliveryReads().history(null, callbackId, 1, 100).deliveries().stream()
                .filter(d -> !d.name().equals("callback.verify")).toList();
    }

    @Test
    void aTamperedDeliveryFailsTheReceiversVerificationAndIsMarkedAsATest() {
        String token = token();
        long id = nodeCallback(token, "/tampered");
        var r = fire(token, "{\"name\": \"invoice.create\", \"object_id\": 7, \"delivery\": {\"signature\": \"tampered\"}}");
        assertEquals(202, r.status(), r.body());
        assertEquals("tampered", r.json().get("delivery").get("signature").asText());

        JsonNode got = node.next("/tampered");
        assertEquals("invoice.create", got.get("name").asText());
        assertEquals("7", got.get("object_id").asText());
        assertFalse(got.get("authentic").asBoolean(), got.toString());
        assertTrue(got.get("error").asText().contains("signature"), got.toString());
        assertFalse(got.get("authentic_ignoring_time").asBoolean(), "wrong whatever the time: " + got);

        Eventually.await("the 401 is recorded", () -> !history(id).getFirst().attempts().isEmpty());
        DeliveryRecord d = history(id).getFirst();
        assertEquals("tampered", d.test().get("signature"), "marked as a test delivery, with its options");
        assertEquals(401, d.attempts().getFirst().statusCode(), d.attempts().getFirst().error());
        JsonNode json = server.http.get("/events/account/" + f.account().accountId() + "/events/callbacks/" + id + "/deliveries",
                "Authorization", "Bearer " + token, "Api-Version", "alpha").json();
        JsonNode listed = json.get("response").get("result").get("deliveries").get(0);
        assertEquals("tampered", listed.get("test").get("signature").asText(), json.toString());
    }

    @Test
    void aStaleDeliveryFailsOnlyTheTimestampTolerance() {
        String token = token();
        nodeCallback(token, "/stale");
        assertEquals(202, fire(token, "{\"name\": \"invoice.update\", \"delivery\": {\"signature\": \"stale\"}}").status());

        JsonNode got = node.next("/stale");
        assertFalse(got.get("authentic").asBoolean(), got.toString());
        assertTrue(got.get("error").asText().toLowerCase().contains("timestamp"), "refused for its age: " + got);
        assertTrue(got.get("authentic_ignoring_time").asBoolean(), "correctly signed over its timestamp: " + got);
        long age = server.clock().instant().getEpochSecond() - got.get("timestamp").asLong();
        assertTrue(age >= TestDelivery.STALE_BY.toSeconds(), "dated back ten minutes: " + age + " s");
    }

    @Test
    void copiesArriveNTimesWithTheSameIds() {
        String token = token();
        nodeCallback(token, "/copies");
        assertEquals(202, fire(token, "{\"name\": \"invoice.create\", \"object_id\": 3, \"delivery\": {\"copies\": 3}}").status());

        List<JsonNode> got = List.of(node.next("/copies"), node.next("/copies"), node.next("/copies"));
        for (JsonNode g : got) {
            assertTrue(g.get("authentic").asBoolean(), g.toString());
            assertEquals(got.getFirst().get("webhook_id").asText(), g.get("webhook_id").asText());
            assertEquals(got.getFirst().get("webhook_id").asText(), g.get("event_id").asText(), "X-Service-Event-Id is the message id too");
        }
    }

    @Test
    void severalEventsArriveInReversedOrder() {
        String token = token();
        long id = nodeCallback(token, "/reversed");
        var r = fire(token, """
                {"events": [{"name": "invoice.create", "object_id": 1}, {"name": "invoice.update", "object_id": 2},
                            {"name": "invoice.delete", "object_id": 3}],
                 "delivery": {"order": "reversed"}}""");
        assertEquals(202, r.status(), r.body());
        assertEquals(3, r.json().get("events").size());
        assertTrue(r.json().get("events").get(0).get("id").asLong() < r.json().get("events").get(2).get("id").asLong(), "accepted in the order given");

        List<String> arrived = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JsonNode g = node.next("/reversed");
            assertTrue(g.get("authentic").asBoolean(), g.toString());
            arrived.add(g.get("object_id").asText());
        }
        assertEquals(List.of("3", "2", "1"), arrived);
        assertTrue(history(id).stream().allMatch(d -> d.test() != null && "reversed".equals(d.test().get("order"))));
    }

    @Test
    void aShuffledSequenceArrivesOneAtATimeEveryEventOnce() {
        String token = token();
        nodeCallback(token, "/shuffled");
        var r = fire(token, """
                {"events": [{"name": "invoice.create", "object_id": 1}, {"name": "invoice.create", "object_id": 2},
                            {"name": "invoice.create", "object_id": 3}, {"name": "invoice.create", "object_id": 4}],
                 "delivery": {"order": "shuffled"}}""");
        assertEquals(202, r.status(), r.body());
        List<String> arrived = new ArrayList<>();
        for (int i = 0; i < 4; i++) arrived.add(node.next("/shuffled").get("object_id").asText());
        assertEquals(Set.of("1", "2", "3", "4"), Set.copyOf(arrived));
    }

    @Test
    void aDelayedDeliveryIsFirstDueThatLongAfterThePublish() {
        String token = token();
        long id = f.verified("invoice", receiver).id();
        assertEquals(202, fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"delay\": \"PT30M\"}}").status());
        DeliveryRecord d = history(id).getFirst();
        assertEquals(Duration.ofMinutes(30), Duration.between(d.createdAt(), d.nextAttemptAt()));
        assertEquals("PT30M", d.test().get("delay"));
    }

    @Test
    void userIdMayNameAnotherMemberOfTheAccountAndNoOneElse() {
        String token = token();
        f.verified("invoice", receiver);
        var other = server.services().users().create("member-" + System.nanoTime() + "@example.com", "correct horse battery", "Mo", "Member");
        server.services().accounts().addMember(f.account().accountId(), other.id(), "employee");
        var r = fire(token, "{\"name\": \"invoice.create\", \"user_id\": " + other.id() + "}");
        assertEquals(202, r.status(), r.body());
        assertEquals(other.id(), r.json().get("event").get("user_id").asLong());
        assertEquals(Long.toString(other.id()), receiver.next("invoice.create").param("user_id"));

        var stranger = server.services().users().create("stranger-" + System.nanoTime() + "@example.com", "correct horse battery", "St", "Ranger");
        var refused = fire(token, "{\"name\": \"invoice.create\", \"user_id\": " + stranger.id() + "}");
        assertEquals(422, refused.status(), refused.body());
        assertEquals("user_id", violation(refused, 0).get("field").asText());
    }

    @Test
    void badOptionsAreRefusedInTheDocumentedShape() {
        String token = token();
        var r = fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"signature\": \"forged\", \"copies\": 0, \"delay\": \"soon\"}}");
        assertEquals(422, r.status(), r.body());
        assertEquals(Set.of("delivery.signature", "delivery.copies", "delivery.delay"), fields(r));

        assertEquals(Set.of("delivery.delay"), fields(fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"delay\": \"PT2H\"}}")));
        assertEquals(Set.of("delivery.order"), fields(fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"order\": \"reversed\"}}")));
        assertEquals(Set.of("delivery.sign"), fields(fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"sign\": \"stale\"}}")));
        assertEquals(Set.of("delivery.copies"), fields(fire(token, "{\"name\": \"invoice.create\", \"delivery\": {\"copies\": \"3\"}}")));
        assertEquals(Set.of("delivery"), fields(fire(token, "{\"name\": \"invoice.create\", \"delivery\": \"tampered\"}")));
        assertEquals(Set.of("events"), fields(fire(token, "{\"events\": []}")));
        assertEquals(Set.of("events"), fields(fire(token, "{\"events\": {\"name\": \"invoice.create\"}}")));
        assertEquals(Set.of("events"), fields(fire(token, "{\"name\": \"invoice.create\", \"events\": [{\"name\": \"invoice.create\"}]}")));
        assertEquals(Set.of("events[1].name", "events[0].object_id"),
                fields(fire(token, "{\"events\": [{\"name\": \"invoice.create\", \"object_id\": -4}, {\"name\": \"nope\"}]}")));
        var keyed = server.http.postJson("/events/account/" + f.account().accountId() + "/events/test",
                "{\"events\": [{\"name\": \"invoice.create\"}, {\"name\": \"invoice.update\"}]}",
                "Authorization", "Bearer " + token, "Idempotency-Key", "k1");
        assertEquals(Set.of("Idempotency-Key"), fields(keyed));
    }

    /** A key the body cannot hold is named, never ignored: the events would otherwise go out in the order given, silently. */
    @Test
    void anUnknownTopLevelKeyIsA422NamingIt() {
        String token = token();
        var misplaced = fire(token, "{\"events\": [{\"name\": \"invoice.create\"}, {\"name\": \"invoice.update\"}], \"order\": \"reversed\"}");
        assertEquals(Set.of("order"), fields(misplaced));
        assertEquals("order is an option of delivery: {\"delivery\": {\"order\": ...}}", misplaced.json().get("message").asText());
        var typo = fire(token, "{\"name\": \"invoice.create\", \"objectid\": 4, \"x\\u0007\": 1}");
        assertEquals(Set.of("objectid", "x?"), fields(typo), "named in printable characters");
        assertTrue(typo.json().get("message").asText().contains("objectid is not a field of a test event; known: delivery, name, object_id, user_id"),
                typo.body());
        assertEquals(Set.of("object_id"), fields(fire(token, "{\"events\": [{\"name\": \"invoice.create\"}], \"object_id\": 4}")),
                "with events, an event's field belongs in each event");
    }

    /** The options are stored with the delivery: every retry is sent the same way. */
    @Test
    void retriesAreSentWithTheSameOptions() {
        try (TestServer fast = TestServer.start(s -> s.set(Setting.DELIVERY_RETRY_SCHEDULE, "PT1S,PT1S").set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"))) {
            Fixtures g = Fixtures.create(fast);
            Fixtures.Verified cb = g.verified("invoice", receiver);
            receiver.clear();
            AtomicInteger calls = new AtomicInteger();
            receiver.answer(req -> Receiver.Answer.of(calls.incrementAndGet() == 1 ? 500 : 200));
            String token = g.issue(Set.of("user:invoices:read")).accessToken();
            var r = fast.http.postJson("/events/account/" + g.account().accountId() + "/events/test",
                    "{\"name\": \"invoice.create\", \"delivery\": {\"signature\": \"stale\"}}", "Authorization", "Bearer " + token);
            assertEquals(202, r.status(), r.body());
            Receiver.Request first = receiver.next("invoice.create");
            Eventually.await("the 500 is recorded", () -> fast.services().deliveryReads().history(null, cb.id(), 1, 10).deliveries()
                    .getFirst().attemptCount() == 1);
            fast.clock.advance(Duration.ofSeconds(2));   // the retry falls due
            Receiver.Request retry = receiver.next("invoice.create");
            for (Receiver.Request q : List.of(first, retry)) {
                long ts = Long.parseLong(q.header(StandardWebhooks.TIMESTAMP));
                assertTrue(StandardWebhooks.verify(cb.code(), q.header(StandardWebhooks.ID), q.header(StandardWebhooks.TIMESTAMP), q.body(),
                        q.header(StandardWebhooks.SIGNATURE), Instant.ofEpochSecond(ts), Duration.ofMinutes(5)), "signed over its own timestamp");
                assertTrue(fast.clock().instant().getEpochSecond() - ts >= TestDelivery.STALE_BY.toSeconds(), "stale on every attempt");
                assertTrue(ServiceSignature.verify(cb.code(), q.body(), q.signature()));
            }
            assertEquals(first.header(StandardWebhooks.ID), retry.header(StandardWebhooks.ID));
        }
    }

    @Test
    void aRealEventsDeliveryIsNoTest() {
        long id = f.verified("invoice", receiver).id();
        f.publish("invoice.create", 1);
        receiver.next("invoice.create");
        Eventually.await("recorded", () -> !history(id).isEmpty());
        assertEquals(null, history(id).getFirst().test(), "an event of the operator's publish is not a test");
    }

    private static JsonNode violation(TestHttp.Response r, int i) {
        return r.json().get("details").get(0).get("fieldViolations").get(i);
    }

    private static Set<String> fields(TestHttp.Response r) {
        assertEquals(422, r.status(), r.body());
        Set<String> out = new java.util.HashSet<>();
        r.json().get("details").get(0).get("fieldViolations").forEach(v -> out.add(v.get("field").asText()));
        return out;
    }
}
