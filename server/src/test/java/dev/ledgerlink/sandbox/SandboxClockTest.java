package dev.ledgerlink.sandbox;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.refresh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's movable clock over HTTP (docs/sandbox.md "Clock"): every rule reads it. Retries are
 * an hour apart here, so a retry that comes within the test's wait came because the clock moved.
 */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + SandboxClockTest.KEY, "delivery.retry-schedule=PT1H,PT1H,PT1H,PT1H,PT1H,PT1H,PT1H,PT1H"})
class SandboxClockTest {
    static final String KEY = "sandbox-clock-test-operator-key";
    static TestServer server;
    static Fixtures f;

    @AfterEach
    void backToRealTime() {
        assertEquals(200, server.http.delete("/sandbox/v1/clock", operator()).status());
    }

    private static String[] operator() {
        return new String[] {"Authorization", "Bearer " + KEY, "Content-Type", "application/json"};
    }

    private static TestHttp.Response move(String body) {
        return server.http.postJson("/sandbox/v1/clock", body, operator());
    }

    @Test
    void twelveHoursAndAMinuteLaterTheAccessTokenIsRefusedAndTheRefreshTokenStillRefreshes() {
        TokenPair tokens = f.issue();
        assertEquals(200, apiStatus(server, tokens.accessToken()));

        var moved = move("{\"advance\": \"PT12H1M\"}");
        assertEquals(200, moved.status(), moved.body());
        assertEquals("PT12H1M", moved.json().get("offset").asText());
        assertFalse(Instant.parse(moved.json().get("now").asText()).isBefore(server.clock.instant().plus(Duration.ofMinutes(721))));

        assertEquals(401, apiStatus(server, tokens.accessToken()), "expired on the sandbox's clock");
        var refreshed = refresh(server, f, tokens.refreshToken());
        assertEquals(200, refreshed.status(), refreshed.body());
        assertEquals(200, apiStatus(server, refreshed.json().get("access_token").asText()), "the new access token lives from the sandbox's now");
        Instant created = Instant.ofEpochSecond(refreshed.json().get("created_at").asLong());
        assertFalse(created.isBefore(server.clock.instant().plus(Duration.ofHours(12)).minusSeconds(1)), "created_at is on the sandbox's clock: " + created);
    }

    @Test
    void aRetryMadeDueByAnAdvanceIsSent(Receiver receiver) {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        receiver.answer(r -> Receiver.Answer.of(503));
        f.publish("invoice.create", 7);
        receiver.await(1);   // the first attempt failed: its retry is due in an hour
        receiver.answer(r -> Receiver.Answer.of(200));
        // The failure is recorded in a batch after the answer: its retry's due time is set from the clock then,
        // so the clock is moved only once it is recorded (moved before, the retry would be an hour after the move).
        Eventually.await("the failed attempt is recorded", () -> server.services().deliveryReads().history(null, id, 1, 10)
                .deliveries().getFirst().attemptCount() == 1);

        assertEquals(200, move("{\"advance\": \"PT1H10M\"}").status());   // past the retry: an hour plus up to 10% jitter (retry/Jitter)
        receiver.await(2);   // Receiver waits up to 60 s: the hour could not have passed
        Eventually.await("the retry is recorded as delivered", () -> server.services().deliveryReads().history(null, id, 1, 10)
                .deliveries().getFirst().state() == dev.ledgerlink.delivery.DeliveryState.DELIVERED);
    }

    @Test
    void fiveDaysOfFailuresLaterTheCallbackIsDisabled(Receiver receiver) {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.answer(r -> Receiver.Answer.of(500));
        receiver.clear();
        f.publish("invoice.create", 8);
        receiver.await(1);
        assertFalse(f.callback(id).disabled());
        // As above: moved before the failure is recorded, the retry would be due an hour after the move.
        Eventually.await("the failed attempt is recorded", () -> server.services().deliveryReads().history(null, id, 1, 10)
                .deliveries().getFirst().attemptCount() == 1);

        assertEquals(200, move("{\"advance\": \"P5D\"}").status());
        Eventually.await("the callback is disabled by the retry that failed five days after the first failure", () -> f.callback(id).disabled());
    }

    @Test
    void setAndResetAndRead() {
        Instant target = Instant.now().plus(Duration.ofDays(400)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        var set = move("{\"set\": \"" + target + "\"}");
        assertEquals(200, set.status(), set.body());
        assertFalse(Instant.parse(set.json().get("now").asText()).isBefore(target));
        var read = server.http.get("/sandbox/v1/clock", operator());
        assertEquals(200, read.status());
        assertTrue(Duration.parse(read.json().get("offset").asText()).compareTo(Duration.ofDays(399)) > 0, read.body());

        var reset = server.http.delete("/sandbox/v1/clock", operator());
        assertEquals("PT0S", reset.json().get("offset").asText());
        assertEquals(server.clock.instant(), server.services().clock().instant(), "real time again");
    }

    @Test
    void badMovesAre422InTheDocumentedShapeAndMoveNothing() {
        for (String body : new String[] {"{\"advance\": \"-PT1H\"}", "{\"advance\": \"PT0S\"}", "{\"advance\": \"P1M\"}",
                "{\"advance\": \"soon\"}", "{\"advance\": 3600}", "{\"set\": \"2001-01-01T00:00:00Z\"}", "{\"set\": \"tomorrow\"}",
                "{\"advance\": \"PT1H\", \"set\": \"2099-01-01T00:00:00Z\"}", "{}", "{\"forward\": \"PT1H\"}", "{\"advance\": \"P40000D\"}"}) {
            var r = move(body);
            assertEquals(422, r.status(), body + " → " + r.body());
            assertEquals("invalid_field", r.json().get("error").asText(), r.body());
        }
        assertEquals(400, move("not json").status());
        assertTrue(server.services().clock().sandboxOffset().isZero(), "nothing moved");
        // Neither or both: a sentence that reads, naming the field at fault.
        assertEquals("advance is required (a duration such as \"PT13H\"), or set instead (an instant such as \"2027-01-01T00:00:00Z\")",
                move("{}").json().get("message").asText());
        assertEquals("set must not be given with advance: move the clock by a duration or to an instant, not both",
                move("{\"advance\": \"PT1H\", \"set\": \"2099-01-01T00:00:00Z\"}").json().get("message").asText());
    }

    @Test
    void theOperatorKeyIsRequired() {
        assertEquals(401, server.http.get("/sandbox/v1/clock").status());
        assertEquals(401, server.http.postJson("/sandbox/v1/clock", "{\"advance\": \"PT1H\"}", "Authorization", "Bearer wrong").status());
        assertEquals(401, server.http.delete("/sandbox/v1/clock", "Authorization", "Bearer " + f.issue().accessToken()).status());
        assertTrue(server.services().clock().sandboxOffset().isZero());
    }

    @Test
    void productionHasNoSandboxClock() {
        try (TestServer production = TestServer.start(b -> b.set(Setting.DEV, "false").set(Setting.OPERATOR_KEY, KEY))) {
            assertEquals(404, production.http.get("/sandbox/v1/clock", operator()).status());
            assertEquals(404, production.http.postJson("/sandbox/v1/clock", "{\"advance\": \"PT13H\"}", operator()).status());
            assertEquals(404, production.http.delete("/sandbox/v1/clock", operator()).status());
        }
    }
}
