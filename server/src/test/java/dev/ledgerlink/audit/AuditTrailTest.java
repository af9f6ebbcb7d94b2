package dev.ledgerlink.audit;

import static dev.ledgerlink.oauth.OAuthFlows.authorizeUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit trail (docs/operations.md, "Audit trail"): each security event is one line on
 * dev.ledgerlink.audit, with its fields as JSON fields and no secret, and one more in
 * ledgerlink_audit_events_total{event} of GET /metrics.
 */
@LedgerlinkTest
@ServerSettings("login.max-failures=2")
class AuditTrailTest {
    TestServer server;
    Fixtures f;
    Receiver receiver;
    AuditLines lines;
    final List<String> secrets = new ArrayList<>();

    @BeforeEach
    void capture() {
        lines = new AuditLines();
        secrets.addAll(List.of(f.clientSecret(), f.password()));
    }

    @AfterEach
    void noSecretWasWritten() {
        lines.close();
        for (String line : lines.raw()) {
            for (String secret : secrets) assertFalse(line.contains(secret), "a secret reached the audit log: " + line);
        }
    }

    @Test
    void aRefreshReplayThatRevokesTheGrantIsOneLine() {
        double before = AuditLines.counter(server, "refresh_token.replayed");
        TokenPair pair = f.issue();
        JsonNode next = OAuthFlows.refresh(server, f, pair.refreshToken()).json();
        secrets.addAll(List.of(pair.accessToken(), pair.refreshToken(), next.get("access_token").asText(), next.get("refresh_token").asText()));
        server.clock.advance(Duration.ofSeconds(31));
        assertEquals(400, OAuthFlows.refresh(server, f, pair.refreshToken()).status());

        JsonNode line = one("refresh_token.replayed");
        assertEquals(pair.grantId(), line.get("grant_id").asLong());
        assertEquals(f.user().id(), line.get("user_id").asLong());
        assertEquals(f.app().id(), line.get("application_id").asLong());
        assertEquals(f.app().clientId(), line.get("client_id").asText());
        assertEquals(31, line.get("presented_after_seconds").asLong());
        assertTrue(line.get("tokens_revoked").asInt() >= 2, line.toString());
        assertEquals("INFO", line.get("level").asText());
        assertEquals(AuditLog.LOGGER, line.get("logger_name").asText());
        assertTrue(line.get("message").asText().startsWith("event=refresh_token.replayed grant_id=" + pair.grantId()), line.toString());
        assertEquals(before + 1, AuditLines.counter(server, "refresh_token.replayed"));

        // Presented once more: nothing is left to revoke, so nothing more to report.
        assertEquals(400, OAuthFlows.refresh(server, f, pair.refreshToken()).status());
        assertEquals(1, lines.of("refresh_token.replayed").size());
        assertEquals(before + 1, AuditLines.counter(server, "refresh_token.replayed"));
    }

    @Test
    void aReplayInsideTheWindowIsNoAuditEvent() {
        double before = AuditLines.counter(server, "refresh_token.replayed");
        TokenPair pair = f.issue();
        secrets.addAll(List.of(pair.accessToken(), pair.refreshToken()));
        OAuthFlows.refresh(server, f, pair.refreshToken());
        assertEquals(400, OAuthFlows.refresh(server, f, pair.refreshToken()).status());
        assertEquals(List.of(), lines.of("refresh_token.replayed"));
        assertEquals(before, AuditLines.counter(server, "refresh_token.replayed"));
    }

    @Test
    void aReusedCodeIsOneLine() {
        double before = AuditLines.counter(server, "authorization_code.reused");
        String code = OAuthFlows.code(server, f);
        JsonNode tokens = OAuthFlows.exchange(server, f, code).json();
        secrets.addAll(List.of(code, tokens.get("access_token").asText(), tokens.get("refresh_token").asText()));
        assertEquals(400, OAuthFlows.exchange(server, f, code).status());

        JsonNode line = one("authorization_code.reused");
        assertEquals(f.user().id(), line.get("user_id").asLong());
        assertEquals(f.app().clientId(), line.get("client_id").asText());
        assertTrue(line.get("grant_id").isIntegralNumber(), line.toString());
        assertTrue(line.get("code_id").isIntegralNumber(), line.toString());
        assertEquals(2, line.get("tokens_revoked").asInt(), line.toString());
        assertTrue(line.hasNonNull("used_at"), line.toString());
        assertEquals(before + 1, AuditLines.counter(server, "authorization_code.reused"));
    }

    @Test
    void aThrottledLoginIsOneLineNamingTheUserButNotWhatWasTyped() {
        double before = AuditLines.counter(server, "login.throttled");
        BrowserSession browser = server.closeFirst(new BrowserSession(server.baseUrl()));
        browser.get(authorizeUrl(f, Map.of()));
        secrets.addAll(List.of("wrong password 0", "wrong password 1", f.user().email()));
        for (int i = 0; i < 2; i++) assertEquals(200, browser.logIn(f.user().email(), "wrong password " + i).status());
        assertEquals(List.of(), lines.of("login.throttled"), "wrong passwords are failures, not throttled tries");
        assertEquals(429, browser.logIn(f.user().email(), f.password()).status());

        JsonNode line = one("login.throttled");
        assertEquals("user", line.get("subject").asText());
        assertEquals(f.user().id(), line.get("user_id").asLong());
        assertEquals("account", line.get("limit").asText());
        assertEquals("127.0.0.1", line.get("address").asText());
        assertTrue(line.get("retry_after_seconds").asLong() > 0, line.toString());
        assertEquals(before + 1, AuditLines.counter(server, "login.throttled"));
        server.clock.advance(Duration.ofMinutes(16));   // the window passes: the class's other tests sign in freely
    }

    @Test
    void aCallbackDisabledByItsEndpointIsOneLineOnceCommitted() {
        double before = AuditLines.counter(server, "callback.disabled");
        Fixtures.Verified cb = f.verified("invoice.create", receiver);
        secrets.add(cb.code());
        receiver.answer(r -> Receiver.Answer.of(410));
        f.publish("invoice.create", 7);
        Eventually.await("the callback is disabled and audited", () -> !lines.of("callback.disabled").isEmpty());

        JsonNode line = one("callback.disabled");
        assertEquals(cb.id(), line.get("callback_id").asLong());
        assertEquals(f.account().accountId(), line.get("account_id").asText());
        assertEquals("delivery_engine", line.get("by").asText());
        assertEquals("endpoint_gone", line.get("cause").asText());
        assertTrue(line.get("reason").asText().contains("410 Gone"), line.toString());
        assertFalse(line.toString().contains(receiver.uri()), "a callback's uri may carry a token: " + line);
        Eventually.await("the counter moved", () -> AuditLines.counter(server, "callback.disabled") == before + 1);
    }

    @Test
    void aCallbackDisabledByAnOperatorIsOneLine() {
        double before = AuditLines.counter(server, "callback.disabled");
        Fixtures.Verified cb = f.verified("invoice.create", receiver);
        secrets.add(cb.code());
        server.services().operatorCallbacks().disable(cb.id());
        server.services().operatorCallbacks().disable(cb.id());   // already disabled: nothing happens, nothing is reported

        JsonNode line = one("callback.disabled");
        assertEquals(cb.id(), line.get("callback_id").asLong());
        assertEquals("operator", line.get("by").asText());
        assertEquals("operator", line.get("cause").asText());
        assertEquals(before + 1, AuditLines.counter(server, "callback.disabled"));
    }

    @Test
    void aClientSecretRotatedOrRetiredIsOneLineWithoutEitherSecret() {
        double rotated = AuditLines.counter(server, "client_secret.rotated");
        double retired = AuditLines.counter(server, "client_secret.retired");
        var created = server.services().applications().rotateSecret(f.app().clientId(), "P1D");
        secrets.add(created.clientSecret());

        JsonNode line = one("client_secret.rotated");
        assertEquals(f.app().id(), line.get("application_id").asLong());
        assertEquals(f.app().clientId(), line.get("client_id").asText());
        assertEquals(created.application().previousSecretExpiresAt().toString(), line.get("previous_valid_until").asText());
        assertEquals(rotated + 1, AuditLines.counter(server, "client_secret.rotated"));

        server.services().applications().retireSecret(f.app().clientId());
        server.services().applications().retireSecret(f.app().clientId());   // nothing left to retire
        assertEquals(f.app().clientId(), one("client_secret.retired").get("client_id").asText());
        assertEquals(retired + 1, AuditLines.counter(server, "client_secret.retired"));
    }

    @Test
    void aCallbackGivenANewCodeIsOneLineWithoutEitherCode() {
        double before = AuditLines.counter(server, "callback.code_rotated");
        Fixtures.Verified cb = f.verified("invoice.create", receiver);
        secrets.add(cb.code());
        server.services().callbacks().resend(f.principal(), f.account().accountId(), cb.id());
        secrets.add(receiver.next("callback.verify").param("verifier"));

        JsonNode line = one("callback.code_rotated");
        assertEquals(cb.id(), line.get("callback_id").asLong());
        assertEquals("resend", line.get("reason").asText());
        assertEquals(before + 1, AuditLines.counter(server, "callback.code_rotated"));
    }

    @Test
    void tokensIssuedByAnOperatorAreOneLineWithoutTheTokens() {
        double before = AuditLines.counter(server, "tokens.issued_by_operator");
        var issued = server.services().oauth().operatorGrant().issue(f.user().email(), f.app().clientId(), List.of("user:profile:read"));
        secrets.addAll(List.of(issued.response().accessToken(), issued.response().refreshToken()));

        JsonNode line = one("tokens.issued_by_operator");
        assertEquals(f.user().id(), line.get("user_id").asLong());
        assertEquals(f.app().clientId(), line.get("client_id").asText());
        assertEquals("user:profile:read", line.get("scopes").asText());
        assertEquals(before + 1, AuditLines.counter(server, "tokens.issued_by_operator"));
    }

    @Test
    void aDisconnectedApplicationIsOneLineWithoutTheTokens() {
        TokenPair pair = f.issue();
        secrets.addAll(List.of(pair.accessToken(), pair.refreshToken()));
        server.services().oauth().connectedApps().disconnect(f.user().id(), f.app().clientId(),
                dev.ledgerlink.oauth.ConnectedApps.By.OPERATOR, null);

        JsonNode line = one("connected_app.disconnected");
        assertEquals("operator", line.get("by").asText());
        assertEquals(f.user().id(), line.get("user_id").asLong());
        assertEquals(f.app().clientId(), line.get("client_id").asText());
        assertEquals(2, line.get("tokens_revoked").asInt());
    }

    /**
     * The second factor's events, through the service the pages call: enrolled, a recovery code used,
     * recovery codes replaced, turned off by the user, reset by an operator. No authenticator secret,
     * code or recovery code in any line.
     */
    @Test
    void theSecondFactorsEventsAreOneLineEachWithoutSecretsOrCodes() {
        var factor = server.services().oauth().secondFactor();
        long user = f.user().id();
        var enrolment = factor.begin(f.user()).orElseThrow();
        byte[] secret = dev.ledgerlink.oauth.Totp.fromBase32(enrolment.secret());
        long step = server.clock.instant().getEpochSecond() / 30;
        String first = dev.ledgerlink.oauth.Totp.codeAt(secret, step);
        var confirmed = factor.confirm(user, first, "203.0.113.9");
        secrets.addAll(List.of(enrolment.secret(), first));
        secrets.addAll(confirmed.recoveryCodes());
        assertEquals("203.0.113.9", one("second_factor.enrolled").get("address").asText());

        String recovery = confirmed.recoveryCodes().getFirst();
        assertTrue(factor.verify(user, recovery, "203.0.113.9") instanceof dev.ledgerlink.oauth.SecondFactor.Accepted);
        assertEquals(9, one("second_factor.recovery_code_used").get("recovery_codes_left").asInt());

        String next = dev.ledgerlink.oauth.Totp.codeAt(secret, step + 1);
        var replaced = factor.replaceRecoveryCodes(user, next, "203.0.113.9");
        secrets.add(next);
        secrets.addAll(replaced.recoveryCodes());
        assertEquals(user, one("second_factor.recovery_codes_replaced").get("user_id").asLong());

        String byUser = replaced.recoveryCodes().get(2);
        assertTrue(factor.remove(user, byUser, null) instanceof dev.ledgerlink.oauth.SecondFactor.Accepted);
        factor.begin(f.user());
        factor.reset(user);
        List<JsonNode> removed = lines.of("second_factor.removed");
        assertEquals(List.of("user", "operator"), removed.stream().map(n -> n.get("by").asText()).toList());
    }

    /** The one line of this event written during the test. */
    private JsonNode one(String event) {
        List<JsonNode> found = lines.of(event);
        assertEquals(1, found.size(), "lines of " + event + ": " + found);
        return found.getFirst();
    }
}
