package dev.ledgerlink.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.cli.Main;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
@ServerSettings({"events.operator-key=" + EventPublishingTest.KEY, "delivery.poll-interval=PT0.1S"})
class EventPublishingTest {
    static final String KEY = "test-operator-key-0123456789";
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    private static String event(String name, String account, Object objectId, Object userId) {
        return "{\"name\": " + quote(name) + ", \"account_id\": " + quote(account) + ", \"object_id\": " + objectId + ", \"user_id\": " + userId + "}";
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    @Test
    void aPublishedEventIsAcknowledged202WithItsIdAndReachesSubscribers() {
        f.verified("invoice", receiver);
        receiver.clear();
        TestHttp.Response r = server.http.postJson("/internal/v1/events", event("invoice.create", f.account().accountId(), 42, f.user().id()),
                "Authorization", "Bearer " + KEY);
        assertEquals(202, r.status(), r.body());
        JsonNode e = r.json().get("event");
        assertTrue(e.get("id").asLong() > 0);
        assertEquals("invoice.create", e.get("name").asText());
        assertEquals(1, e.get("deliveries").asInt());
        assertTrue(receiver.await(1).getFirst().body().contains("object_id=42"));
    }

    @Test
    void theSameIdempotencyKeyReturnsTheSameEventAndQueuesNothingMore() {
        long id = f.verified("invoice.create", receiver).id();
        String body = event("invoice.create", f.account().accountId(), "\"7\"", f.user().id());
        var first = server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-1");
        var again = server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-1");
        assertEquals(202, again.status(), again.body());
        assertEquals(first.json().get("event").get("id"), again.json().get("event").get("id"));
        long deliveries = server.services().database().jdbi().withHandle(h ->
                h.createQuery("select count(*) from deliveries where callback_id = :id and event_id is not null").bind("id", id).mapTo(Long.class).one());
        assertEquals(1, deliveries);
    }

    @Test
    void concurrentPublishesOfOneKeyAgreeOnOneEventWhileOthersEachGetTheirOwn() throws Exception {
        long id = f.verified("invoice.create", receiver).id();
        int each = 8;
        var start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Event>> sameKey = new java.util.ArrayList<>();
        List<java.util.concurrent.Future<Event>> ownKeys = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < each; i++) {
                String own = "own-" + i;
                sameKey.add(pool.submit(() -> publishAfter(start, 11L, "shared-key")));
                ownKeys.add(pool.submit(() -> publishAfter(start, 12L, own)));
            }
            start.countDown();
            java.util.Set<Long> shared = new java.util.HashSet<>();
            java.util.Set<Long> separate = new java.util.HashSet<>();
            for (var e : sameKey) shared.add(e.get().id());
            for (var e : ownKeys) separate.add(e.get().id());
            assertEquals(1, shared.size(), "one event for one key: " + shared);
            assertEquals(each, separate.size(), "an event per key: " + separate);
        }
        long deliveries = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from deliveries where callback_id = :id and kind = 'event'").bind("id", id).mapTo(Long.class).one());
        assertEquals(1 + each, deliveries, "each event fanned out once");
        assertEquals(1 + each, receiver.await(1 + each, r -> r.body().startsWith("name=invoice.create")).size());
    }

    private Event publishAfter(java.util.concurrent.CountDownLatch start, long objectId, String key) throws InterruptedException {
        start.await();
        return server.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), objectId, f.user().id(), key));
    }

    @Test
    void anIdempotencyKeyReusedWithAnotherPayloadIsA409NamingTheKey() {
        String acct = f.account().accountId();
        var first = server.http.postJson("/internal/v1/events", event("invoice.create", acct, 7, f.user().id()),
                "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-7");
        assertEquals(202, first.status(), first.body());
        var other = server.http.postJson("/internal/v1/events", event("invoice.update", acct, 7, f.user().id()),
                "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-7");
        assertEquals(409, other.status(), other.body());
        assertEquals("conflict", other.json().get("error").asText());
        assertTrue(other.json().get("message").asText().contains("k-7"), other.body());
        long events = server.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from events where account_id = :a")
                .bind("a", acct).mapTo(Long.class).one());
        assertEquals(1, events);
    }

    @Test
    void idempotencyKeysAreScopedToTheAccount() {
        var a = f;
        var b = Fixtures.create(server);
        var inA = server.http.postJson("/internal/v1/events", event("invoice.create", a.account().accountId(), 1, a.user().id()),
                "Authorization", "Bearer " + KEY, "Idempotency-Key", "shared");
        var inB = server.http.postJson("/internal/v1/events", event("invoice.create", b.account().accountId(), 1, b.user().id()),
                "Authorization", "Bearer " + KEY, "Idempotency-Key", "shared");
        assertEquals(202, inA.status(), inA.body());
        assertEquals(202, inB.status(), inB.body());
        assertTrue(inA.json().get("event").get("id").asLong() != inB.json().get("event").get("id").asLong());
        assertEquals(b.account().accountId(), inB.json().get("event").get("account_id").asText());
    }

    @Test
    void unknownNamesUnknownAccountsAndBadIdsAre422InTheErrorShape() {
        String acct = f.account().accountId();
        for (String body : List.of(
                event("invoice", acct, 1, 1), event("invoice.explode", acct, 1, 1), event("callback.verify", acct, 1, 1),
                event("invoice.create", "nope9", 1, 1), event("invoice.create", acct, 0, 1), event("invoice.create", acct, "\"x\"", 1),
                event("invoice.create", acct, 1, -3), event("invoice.create", acct, 1.5, 1), "{}")) {
            var r = server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer " + KEY);
            assertEquals(422, r.status(), body + " -> " + r.body());
            assertEquals("invalid_field", r.json().get("error").asText());
            assertTrue(r.json().get("details").get(0).get("fieldViolations").size() > 0);
        }
        assertEquals(400, server.http.postJson("/internal/v1/events", "not json", "Authorization", "Bearer " + KEY).status());
    }

    @Test
    void aMissingOrWrongOperatorKeyIs401() {
        String body = event("invoice.create", f.account().accountId(), 1, 1);
        assertEquals(401, server.http.postJson("/internal/v1/events", body).status());
        assertEquals(401, server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer wrong").status());
        assertEquals(401, server.http.postJson("/internal/v1/events", body, "Authorization", "Basic " + KEY).status());
    }

    @Test
    void withoutAConfiguredKeyOutsideDevModePublishingIsRefusedWithAClearMessage() {
        try (TestServer server = TestServer.start(s -> s.set(Setting.DEV, "false"))) {   // outside dev mode: a server of its own
            var r = server.http.postJson("/internal/v1/events", "{}", "Authorization", "Bearer anything");
            assertEquals(403, r.status());
            assertTrue(r.json().get("message").asText().contains("events.operator-key"));
        }
    }

    @Test
    void fanOutReachesVerifiedEnabledCallbacksOfTheAccountForTheNameOrItsNoun() {
        var other = Fixtures.create(server);
        long noun = f.verified("invoice", receiver, receiver.uri() + "/a").id();
        long exact = f.verified("invoice.create", receiver, receiver.uri() + "/b").id();
        f.verified("invoice.update", receiver, receiver.uri() + "/c");
        f.verified("client", receiver, receiver.uri() + "/d");
        f.register("invoice", receiver.uri() + "/e");   // never verified
        long disabled = f.verified("invoice", receiver, receiver.uri() + "/f").id();
        server.services().operatorCallbacks().disable(disabled);
        other.verified("invoice", receiver, receiver.uri() + "/g");

        Event e = server.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), 1L, f.user().id(), null));
        assertEquals(2, e.deliveries());
        List<Long> targets = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select callback_id from deliveries where event_id = :e order by callback_id").bind("e", e.id()).mapTo(Long.class).list());
        assertEquals(List.of(noun, exact), targets);
    }

    @Test
    void anEventPublishedByTheCliIsDeliveredByTheRunningServer() {
        f.verificationsRecorded(f.verified("client", receiver).id());   // the clock moves a lease's length below
        receiver.clear();
        var settings = server.services().settings();
        StringWriter out = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "events", "publish",
                "--db", settings.get(Setting.DB_URL), "--set", "db.user=" + settings.get(Setting.DB_USER),
                "--set", "secrets.key=" + settings.get(Setting.SECRETS_KEY),
                "--account", f.account().accountId(), "--name", "client.create", "--object-id", "99", "--user-id", Long.toString(f.user().id()), "--json");
        assertEquals(0, exit, out.toString());
        assertTrue(out.toString().contains("\"deliveries\":1"), out.toString());
        // The CLI stamps the real time; the test server's clock stands still, so bring it level.
        server.clock.advance(java.time.Duration.ofMinutes(1));
        assertTrue(receiver.await(1).getFirst().body().startsWith("name=client.create&object_id=99"));
    }
}
