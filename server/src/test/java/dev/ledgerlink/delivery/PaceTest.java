package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.EventReceivers;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Pace (docs/delivery.md): an operator's rate limit on a callback, set with the admin API's PATCH or
 * `ledgerlink callbacks set`, holds deliveries beyond it back without dropping them or counting them
 * as failures; a receiver's Retry-After still counts. Two nodes sharing one budget: PaceSharingTest.
 */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + PaceTest.KEY, "delivery.poll-interval=PT0.1S", "delivery.retry-schedule=PT0.2S,PT0.2S,PT0.2S"})
class PaceTest {
    static final String KEY = "test-operator-key-pace-0123456789";
    private static final String A = "/internal/v1/admin/callbacks/";
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    private static TestHttp.Response patch(long id, String json) {
        return server.http.send(server.http.request(A + id).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEY).method("PATCH", HttpRequest.BodyPublishers.ofString(json)));
    }

    private static JsonNode ok(TestHttp.Response r) {
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    /** A 422 in the documented error shape, naming {@code field}. */
    private static void assertInvalid(TestHttp.Response r, String field) {
        assertEquals(422, r.status(), r.body());
        assertEquals(422, r.json().get("errno").asInt(), r.body());
        assertEquals(field, r.json().at("/details/0/fieldViolations/0/field").asText(), r.body());
    }

    @Test
    void theAdminApiSetsShowsAndClearsARateLimitAndRefusesWhatIsNotOne() {
        long id = f.register("invoice", receiver.uri()).id();
        JsonNode shown = ok(server.http.get(A + id, "Authorization", "Bearer " + KEY)).get("callback");
        assertTrue(shown.has("rate_limit") && shown.get("rate_limit").isNull(), shown.toString());

        assertEquals(5, ok(patch(id, "{\"rate_limit\": 5}")).at("/callback/rate_limit").asInt());
        assertEquals(5, ok(server.http.get(A + id, "Authorization", "Bearer " + KEY)).at("/callback/rate_limit").asInt());
        assertEquals(5, f.callback(id).rateLimit());

        for (String bad : new String[] {"0", "-1", "10001", "2.5", "\"5\"", "true", "[5]", "{}", "99999999999999999999"}) {
            assertInvalid(patch(id, "{\"rate_limit\": " + bad + "}"), "rate_limit");
        }
        assertInvalid(patch(id, "{\"rate_limt\": 5}"), "rate_limt");
        assertInvalid(patch(id, "{}"), "body");
        assertEquals(400, patch(id, "not json").status());
        assertEquals(5, f.callback(id).rateLimit(), "refused changes change nothing");
        assertEquals(404, patch(id + 999, "{\"rate_limit\": 5}").status());
        assertEquals(401, server.http.send(server.http.request(A + id).method("PATCH", HttpRequest.BodyPublishers.ofString("{\"rate_limit\": 5}"))).status());

        JsonNode cleared = ok(patch(id, "{\"rate_limit\": null}")).get("callback");
        assertTrue(cleared.get("rate_limit").isNull(), cleared.toString());
        assertNull(f.callback(id).rateLimit());
    }

    @Test
    void theCliSetsShowsAndClearsARateLimit() {
        long id = f.register("invoice", receiver.uri()).id();
        String cb = Long.toString(id);
        assertEquals(7, ServerCli.json(server, "callbacks", "set", cb, "--rate-limit", "7", "--json").at("/callback/rate_limit").asInt());
        assertEquals(7, ServerCli.json(server, "callbacks", "show", cb, "--json").at("/callback/rate_limit").asInt());
        assertTrue(ServerCli.run(server, "callbacks", "show", cb).out().contains("rate-limit=7/s"));
        var refused = ServerCli.run(server, "callbacks", "set", cb, "--rate-limit", "fast");
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertTrue(refused.err().contains("--rate-limit"), refused.err());
        assertEquals(2, ServerCli.run(server, "callbacks", "set", cb).exitCode(), "nothing to set");
        assertEquals(7, f.callback(id).rateLimit());
        assertTrue(ServerCli.json(server, "callbacks", "set", cb, "--rate-limit", "none", "--json").at("/callback/rate_limit").isNull());
        assertNull(f.callback(id).rateLimit());
    }

    /**
     * 50 events at 5 a second: the first five may go at once, the 50th no sooner than 45 slots (9 s)
     * after the first could go; all arrive, each once, with one successful attempt and no failure. A
     * callback without a limit, subscribed to the same events, is not held back by the other's pace.
     */
    @Test
    void fiftyEventsAtFiveASecondTakeAtLeastNineSecondsAndNoneIsDroppedOrCountedAsAFailure() {
        try (var ticking = server.clock.followRealTime(); Receiver free = new Receiver()) {
            long paced = f.verified("invoice", receiver).id();
            long unpaced = f.verified("invoice", free).id();
            f.verificationsRecorded(paced);
            f.verificationsRecorded(unpaced);
            ok(patch(paced, "{\"rate_limit\": 5}"));
            receiver.clear();
            free.clear();
            List<Instant> arrivals = new CopyOnWriteArrayList<>();
            Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
            receiver.answer(r -> {
                arrivals.add(server.clock.instant());   // the clock the pace is kept by
                seen.computeIfAbsent(r.header("X-Service-Event-Id"), k -> new AtomicInteger()).incrementAndGet();
                return Receiver.Answer.of(200);
            });
            Instant start = server.clock.instant();
            for (int i = 1; i <= 50; i++) f.publish("invoice.create", i);

            free.await(50);
            assertTrue(receiver.received() < 50, "the callback without a limit is not held back: the paced one has " + receiver.received());
            Deliveries.await("50 paced deliveries (" + receiver.received() + ")", () -> delivered(paced) == 50);
            assertEquals(50, seen.size());
            assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each once: " + seen);
            Duration took = Duration.between(start, arrivals.stream().max(Instant::compareTo).orElseThrow());
            assertTrue(took.compareTo(Duration.ofSeconds(9)) >= 0, "50 at 5/s with a burst of 5 cannot arrive within 9 s: " + took);
            assertEquals(50, attempts(paced, "status_code = 200"), "one attempt each");
            assertEquals(0, attempts(paced, "status_code is null or status_code <> 200"), "waiting is no failed attempt");
            assertNull(f.callback(paced).failingSince());
            assertTrue(EventReceivers.receives(f.callback(paced).state()));
        }
    }

    /**
     * On a clock that stands still unless moved: at 1 a second, one of ten goes and nine wait for their
     * turns (1 to 9 s ahead). Raised to 100 a second, all nine fall due at once and go as soon as the
     * first second's slot has passed, instead of one a second at the turns the old limit gave them.
     */
    @Test
    void aRaisedLimitPacesTheWaitingDeliveriesAnewAtOnce() {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        ok(patch(id, "{\"rate_limit\": 1}"));
        receiver.clear();
        for (int i = 1; i <= 10; i++) f.publish("invoice.create", i);
        receiver.await(1);
        Deliveries.await("nine wait for their turns (" + waiting(id) + ")", () -> waiting(id) == 9);
        assertEquals(1, receiver.received());
        assertEquals(0, attempts(id, "status_code is null or status_code <> 200"), "waiting is no failed attempt");

        ok(patch(id, "{\"rate_limit\": 100}"));
        assertEquals(0, waiting(id), "due now, to be paced anew");
        server.clock.advance(Duration.ofSeconds(1));
        Deliveries.await("all ten delivered (" + delivered(id) + ")", () -> delivered(id) == 10);
        assertEquals(10, receiver.received());
        assertTrue(Deliveries.counter(server, "ledgerlink_deliveries_paced_total") >= 9);
    }

    /** Pending deliveries of the callback, unleased, due later than now: waiting for their turn. */
    private long waiting(long callbackId) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from deliveries where callback_id = :id and kind = 'event' and state = 'pending' and lease_owner is null and next_attempt_at > :now")
                .bind("id", callbackId).bind("now", server.clock.instant()).mapTo(Long.class).one());
    }

    /** A 429 with Retry-After on a paced callback: the retry waits for what the receiver asked, not the 0.2 s schedule. */
    @Test
    void aReceiversRetryAfterIsStillHonouredOnAPacedCallback() {
        try (var ticking = server.clock.followRealTime()) {
            long id = f.verified("invoice", receiver).id();
            f.verificationsRecorded(id);
            ok(patch(id, "{\"rate_limit\": 5}"));
            receiver.clear();
            List<Instant> arrivals = new CopyOnWriteArrayList<>();
            AtomicInteger calls = new AtomicInteger();
            receiver.answer(r -> {
                arrivals.add(server.clock.instant());
                return calls.incrementAndGet() == 1 ? new Receiver.Answer(429, Map.of("Retry-After", "2"), Duration.ZERO) : Receiver.Answer.of(204);
            });
            f.publish("invoice.create", 1);
            Deliveries.await("delivered after the 429", () -> delivered(id) == 1);
            assertEquals(2, arrivals.size());
            Duration gap = Duration.between(arrivals.get(0), arrivals.get(1));
            assertTrue(gap.compareTo(Duration.ofSeconds(2)) >= 0, "Retry-After: 2 honoured: " + gap);
            assertEquals(1, attempts(id, "status_code = 429"));
            assertEquals(1, attempts(id, "status_code = 204"));
        }
    }

    @Test
    void theConsoleShowsACallbacksRateLimit() {
        long id = f.register("invoice", receiver.uri()).id();
        BrowserSession b = new BrowserSession(server.baseUrl());
        assertEquals(303, b.consoleSignIn(f.user().email(), f.password()).status());
        String page = "/console/callbacks/" + id + "/deliveries";
        assertFalse(b.get(page).body().contains("deliveries/s"), "no limit, none shown");
        ok(patch(id, "{\"rate_limit\": 5}"));
        assertTrue(b.get(page).body().contains("at most 5 deliveries/s"), b.get(page).body());
        assertTrue(b.get("/console/callbacks").body().contains("at most 5 deliveries/s"));
    }

    @Test
    @ServerSettings({"delivery.rate-limit=3"})
    void theConsoleShowsTheSettingsLimitForCallbacksWithoutOneOfTheirOwn(TestServer own) {
        long id = f.register("invoice", receiver.uri()).id();
        BrowserSession b = new BrowserSession(own.baseUrl());
        assertEquals(303, b.consoleSignIn(f.user().email(), f.password()).status());
        assertTrue(b.get("/console/callbacks/" + id + "/deliveries").body().contains("at most 3 deliveries/s (delivery.rate-limit)"));
    }

    private long delivered(long callbackId) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from deliveries where callback_id = :id and kind = 'event' and state = 'delivered'")
                .bind("id", callbackId).mapTo(Long.class).one());
    }

    private long attempts(long callbackId, String condition) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id where d.callback_id = :id and d.kind = 'event' and ("
                        + condition + ")").bind("id", callbackId).mapTo(Long.class).one());
    }
}
