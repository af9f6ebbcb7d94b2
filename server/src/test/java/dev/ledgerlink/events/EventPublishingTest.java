package dev.ledgerlink.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.cli.Main;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.delivery.CallbackFixture;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventPublishingTest {
    private static final String KEY = "test-operator-key-0123456789";

    private static TestServer server() {
        return TestServer.start(s -> s.set(Setting.OPERATOR_KEY, KEY).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
    }

    private static String event(String name, String account, Object objectId, Object userId) {
        return "{\"name\": " + quote(name) + ", \"account_id\": " + quote(account) + ", \"object_id\": " + objectId + ", \"user_id\": " + userId + "}";
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    @Test
    void aPublishedEventIsAcknowledged202WithItsIdAndReachesSubscribers() {
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            f.callback("invoice", receiver.uri(), "code", true);
            TestHttp.Response r = server.http.postJson("/internal/v1/events", event("invoice.create", f.account.accountId(), 42, f.user.id()),
                    "Authorization", "Bearer " + KEY);
            assertEquals(202, r.status(), r.body());
            JsonNode e = r.json().get("event");
            assertTrue(e.get("id").asLong() > 0);
            assertEquals("invoice.create", e.get("name").asText());
            assertEquals(1, e.get("deliveries").asInt());
            assertTrue(receiver.await(1).getFirst().body().contains("object_id=42"));
        }
    }

    @Test
    void theSameIdempotencyKeyReturnsTheSameEventAndQueuesNothingMore() {
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            f.callback("invoice.create", receiver.uri(), "code", true);
            String body = event("invoice.create", f.account.accountId(), "\"7\"", f.user.id());
            var first = server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-1");
            var again = server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-1");
            assertEquals(202, again.status(), again.body());
            assertEquals(first.json().get("event").get("id"), again.json().get("event").get("id"));
            long deliveries = server.services().database().jdbi().withHandle(h ->
                    h.createQuery("select count(*) from deliveries").mapTo(Long.class).one());
            assertEquals(1, deliveries);
        }
    }

    @Test
    void anIdempotencyKeyReusedWithAnotherPayloadIsA409NamingTheKey() {
        try (TestServer server = server()) {
            var f = new CallbackFixture(server.services());
            String acct = f.account.accountId();
            var first = server.http.postJson("/internal/v1/events", event("invoice.create", acct, 7, f.user.id()),
                    "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-7");
            assertEquals(202, first.status(), first.body());
            var other = server.http.postJson("/internal/v1/events", event("invoice.update", acct, 7, f.user.id()),
                    "Authorization", "Bearer " + KEY, "Idempotency-Key", "k-7");
            assertEquals(409, other.status(), other.body());
            assertEquals("conflict", other.json().get("error").asText());
            assertTrue(other.json().get("message").asText().contains("k-7"), other.body());
            long events = server.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from events").mapTo(Long.class).one());
            assertEquals(1, events);
        }
    }

    @Test
    void idempotencyKeysAreScopedToTheAccount() {
        try (TestServer server = server()) {
            var a = new CallbackFixture(server.services());
            var b = new CallbackFixture(server.services());
            var inA = server.http.postJson("/internal/v1/events", event("invoice.create", a.account.accountId(), 1, a.user.id()),
                    "Authorization", "Bearer " + KEY, "Idempotency-Key", "shared");
            var inB = server.http.postJson("/internal/v1/events", event("invoice.create", b.account.accountId(), 1, b.user.id()),
                    "Authorization", "Bearer " + KEY, "Idempotency-Key", "shared");
            assertEquals(202, inA.status(), inA.body());
            assertEquals(202, inB.status(), inB.body());
            assertTrue(inA.json().get("event").get("id").asLong() != inB.json().get("event").get("id").asLong());
            assertEquals(b.account.accountId(), inB.json().get("event").get("account_id").asText());
        }
    }

    @Test
    void unknownNamesUnknownAccountsAndBadIdsAre422InTheErrorShape() {
        try (TestServer server = server()) {
            var f = new CallbackFixture(server.services());
            String acct = f.account.accountId();
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
    }

    @Test
    void aMissingOrWrongOperatorKeyIs401() {
        try (TestServer server = server()) {
            var f = new CallbackFixture(server.services());
            String body = event("invoice.create", f.account.accountId(), 1, 1);
            assertEquals(401, server.http.postJson("/internal/v1/events", body).status());
            assertEquals(401, server.http.postJson("/internal/v1/events", body, "Authorization", "Bearer wrong").status());
            assertEquals(401, server.http.postJson("/internal/v1/events", body, "Authorization", "Basic " + KEY).status());
        }
    }

    @Test
    void withoutAConfiguredKeyOutsideDevModePublishingIsRefusedWithAClearMessage() {
        try (TestServer server = TestServer.start(s -> s.set(Setting.DEV, "false"))) {
            var r = server.http.postJson("/internal/v1/events", "{}", "Authorization", "Bearer anything");
            assertEquals(403, r.status());
            assertTrue(r.json().get("message").asText().contains("events.operator-key"));
        }
    }

    @Test
    void fanOutReachesVerifiedEnabledCallbacksOfTheAccountForTheNameOrItsNoun() {
        try (TestServer server = server()) {
            var f = new CallbackFixture(server.services());
            var other = new CallbackFixture(server.services());
            long noun = f.callback("invoice", "http://127.0.0.1:9/a", "c", true);
            long exact = f.callback("invoice.create", "http://127.0.0.1:9/b", "c", true);
            f.callback("invoice.update", "http://127.0.0.1:9/c", "c", true);
            f.callback("client", "http://127.0.0.1:9/d", "c", true);
            f.callback("invoice", "http://127.0.0.1:9/e", "c", false);
            long disabled = f.callback("invoice", "http://127.0.0.1:9/f", "c", true);
            server.services().database().jdbi().useHandle(h -> h.execute("update callbacks set disabled = true where id = ?", disabled));
            other.callback("invoice", "http://127.0.0.1:9/g", "c", true);

            Event e = server.services().events().publish(new EventPublisher.Request("invoice.create", f.account.accountId(), 1L, f.user.id(), null));
            assertEquals(2, e.deliveries());
            List<Long> targets = server.services().database().jdbi().withHandle(h -> h.createQuery(
                    "select callback_id from deliveries where event_id = :e order by callback_id").bind("e", e.id()).mapTo(Long.class).list());
            assertEquals(List.of(noun, exact), targets);
        }
    }

    @Test
    void anEventPublishedByTheCliIsDeliveredByTheRunningServer() {
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            f.callback("payment", receiver.uri(), "code", true);
            var settings = server.services().settings();
            StringWriter out = new StringWriter();
            int exit = Main.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "events", "publish",
                    "--db", settings.get(Setting.DB_URL), "--set", "db.user=" + settings.get(Setting.DB_USER),
                    "--set", "secrets.key=" + settings.get(Setting.SECRETS_KEY),
                    "--account", f.account.accountId(), "--name", "payment.create", "--object-id", "99", "--user-id", Long.toString(f.user.id()), "--json");
            assertEquals(0, exit, out.toString());
            assertTrue(out.toString().contains("\"deliveries\":1"), out.toString());
            // The CLI stamps the real time; the test server's clock stands still, so bring it level.
            server.clock.advance(java.time.Duration.ofMinutes(1));
            assertTrue(receiver.await(1).getFirst().body().startsWith("name=payment.create&object_id=99"));
        }
    }
}
