package dev.ledgerlink.sandbox;

import static dev.ledgerlink.oauth.OAuthFlows.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Development mode's journal of the applications' calls (docs/sandbox.md, "Journal"): a refused
 * token call with its error, newest first, per client; never a secret, token, code, verifier or
 * password anywhere in it; bounded by sandbox.journal-size.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + SandboxFaultsTest.OPERATOR_KEY)
class RequestJournalTest {
    static TestServer server;
    Fixtures f;

    private JsonNode requests(String query) {
        TestHttp.Response r = server.http.get("/sandbox/v1/requests" + query, SandboxFaultsTest.OPERATOR);
        assertEquals(200, r.status(), r.body());
        return r.json().get("requests");
    }

    @Test
    void aRefusedTokenCallIsJournaledWithItsErrorAndDescription() {
        TestHttp.Response refused = OAuthFlows.refresh(server, f, "not-a-refresh-token-of-this-app");
        assertEquals(400, refused.status(), refused.body());
        JsonNode entry = requests("?client_id=" + f.app().clientId()).get(0);
        assertEquals(f.app().clientId(), entry.get("client_id").asText());
        assertEquals("POST", entry.get("method").asText());
        assertEquals("/auth/oauth/token", entry.get("path").asText());
        assertEquals(400, entry.get("status").asInt());
        assertEquals("invalid_grant", entry.get("error").asText());
        assertEquals(refused.json().get("error_description").asText(), entry.get("error_description").asText());
        assertTrue(entry.get("duration_ms").asInt() >= 0);
    }

    /** An expired (or revoked) access token still names its application: the 401 shows among the app's calls. */
    @Test
    void aCallWithAnExpiredOrRevokedTokenIsJournaledUnderTheTokensApplication() {
        String expired = f.issue().accessToken(), revoked = f.issue().accessToken();
        assertEquals(200, OAuthFlows.revoke(server, f, revoked).status());
        assertEquals(200, server.http.postJson("/sandbox/v1/clock", "{\"advance\": \"PT12H1M\"}", SandboxFaultsTest.OPERATOR).status());
        try {
            assertEquals(401, server.http.get("/auth/api/v1/users/me", f.bearer(expired)).status());
            assertEquals(401, server.http.get("/events/account/" + f.account().accountId() + "/events/callbacks", f.bearer(revoked)).status());
            assertEquals(401, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer not-a-token-at-all").status());
        } finally {
            assertEquals(200, server.http.delete("/sandbox/v1/clock", SandboxFaultsTest.OPERATOR).status());
        }
        JsonNode mine = requests("?client_id=" + f.app().clientId() + "&limit=2");
        assertEquals(List.of("/events/account/" + f.account().accountId() + "/events/callbacks", "/auth/api/v1/users/me"),
                List.of(mine.get(0).get("path").asText(), mine.get(1).get("path").asText()), mine.toString());
        mine.forEach(e -> assertEquals(401, e.get("status").asInt()));
        assertTrue(requests("?limit=1").get(0).get("client_id").isNull(), "a token never issued names no application");
    }

    @Test
    void newestFirstPerClientWithALimit() {
        Fixtures other = Fixtures.create(server);
        String token = f.issue().accessToken();
        server.http.get("/auth/api/v1/users/me", f.bearer(token));
        server.http.get("/events/account/" + f.account().accountId() + "/events/callbacks", f.bearer(token));
        server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + other.issue().accessToken());
        JsonNode mine = requests("?client_id=" + f.app().clientId() + "&limit=2");
        assertEquals(2, mine.size());
        assertEquals("/events/account/" + f.account().accountId() + "/events/callbacks", mine.get(0).get("path").asText(), "newest first");
        assertEquals("/auth/api/v1/users/me", mine.get(1).get("path").asText());
        assertNull(mine.get(1).get("error").textValue());
        assertTrue(mine.get(0).get("id").asLong() > mine.get(1).get("id").asLong());
        mine.forEach(e -> assertEquals(f.app().clientId(), e.get("client_id").asText(), "the token's application names the client"));
        assertEquals(other.app().clientId(), requests("?limit=1").get(0).get("client_id").asText(), "without client_id: every client");

        TestHttp.Response bad = server.http.get("/sandbox/v1/requests?limit=0", SandboxFaultsTest.OPERATOR);
        assertEquals(422, bad.status(), bad.body());
        assertEquals("limit", bad.json().get("details").get(0).get("fieldViolations").get(0).get("field").asText());
    }

    @Test
    void noSecretTokenCodeVerifierOrPasswordIsEverJournaled(Receiver receiver) {
        String verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-journal";
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier.getBytes(StandardCharsets.US_ASCII)));
        BrowserSession browser = server.closeFirst(new BrowserSession(server.baseUrl()));
        browser.get(OAuthFlows.authorizeUrl(f, Map.of("state", "state-xyz", "code_challenge", challenge, "code_challenge_method", "S256")));
        String csrf = browser.csrfToken();
        browser.logIn(f.user().email(), "a wrong password " + f.password());
        browser.logIn(f.user().email(), f.password());
        if (browser.last.status() == 200) browser.authorize();
        String code = browser.redirectParams().get("code");
        List<String> secrets = new ArrayList<>(List.of(f.password(), f.clientSecret(), code, verifier, challenge, csrf));

        TestHttp.Response wrongVerifier = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code, "redirect_uri", Fixtures.REDIRECT_URI,
                "code_verifier", verifier + "x")));
        assertEquals(400, wrongVerifier.status(), wrongVerifier.body());
        String basic = Base64.getEncoder().encodeToString((f.app().clientId() + ":" + f.clientSecret() + "-wrong").getBytes(StandardCharsets.UTF_8));
        assertEquals(401, server.http.postForm("/auth/oauth/token", "grant_type=authorization_code&code=" + code, "Authorization", "Basic " + basic).status());
        String code2 = OAuthFlows.code(server, f, Map.of("state", "again", "code_challenge", challenge, "code_challenge_method", "S256"));
        secrets.add(code2);
        TestHttp.Response exchanged = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code2, "redirect_uri", Fixtures.REDIRECT_URI,
                "code_verifier", verifier)));
        assertEquals(200, exchanged.status(), exchanged.body());
        String access = exchanged.json().get("access_token").asText();
        String refresh = exchanged.json().get("refresh_token").asText();
        TestHttp.Response refreshed = OAuthFlows.refresh(server, f, refresh);
        assertEquals(200, refreshed.status(), refreshed.body());
        String access2 = refreshed.json().get("access_token").asText();
        String refresh2 = refreshed.json().get("refresh_token").asText();
        secrets.addAll(List.of(access, refresh, access2, refresh2));
        assertEquals(400, OAuthFlows.refresh(server, f, refresh).status(), "a replayed refresh token");
        server.http.get("/auth/api/v1/users/me", f.bearer(access2));
        server.http.get("/auth/api/v1/users/me", f.bearer(access2 + "tampered"));
        server.http.postJson("/events/account/" + f.account().accountId() + "/events/callbacks",
                "{\"callback\": {\"event\": \"invoice\", \"uri\": \"" + receiver.uri() + "\"}}", f.bearer(access2));
        String verificationCode = receiver.next("callback.verify").param("verifier");
        secrets.add(verificationCode);
        server.http.putJson("/events/account/" + f.account().accountId() + "/events/callbacks/1",
                "{\"callback\": {\"verifier\": \"" + verificationCode + "x\"}}", f.bearer(access2));
        server.http.postJson("/auth/oauth/introspect", json(Map.of("client_id", f.app().clientId(), "client_secret", f.clientSecret(),
                "token", access2)));
        server.http.postJson("/auth/oauth/revoke", json(Map.of("client_id", f.app().clientId(), "client_secret", f.clientSecret(),
                "token", refresh2)));
        server.http.get(OAuthFlows.authorizeUrl(f, Map.of("state", "s", "client_secret", f.clientSecret())));

        server.services().journal().flush();
        List<String> rows = server.services().database().jdbi().withHandle(h -> h.createQuery("select * from sandbox_requests")
                .map((rs, ctx) -> {
                    StringBuilder b = new StringBuilder();
                    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) b.append(rs.getString(c)).append(" | ");
                    return b.toString();
                }).list());
        assertTrue(rows.size() >= 14, "every call was journaled: " + rows);
        String api = server.http.get("/sandbox/v1/requests?limit=1000", SandboxFaultsTest.OPERATOR).body();
        for (String secret : secrets) {
            assertFalse(secret.isBlank());
            for (String row : rows) assertFalse(row.contains(secret), "a secret in the journal: " + row);
            assertFalse(api.contains(secret), "a secret in GET /sandbox/v1/requests");
        }
        JsonNode entries = requests("?client_id=" + f.app().clientId() + "&limit=1000");
        List<String> errors = new ArrayList<>();
        entries.forEach(e -> errors.add(e.get("method").asText() + " " + e.get("path").asText() + " " + e.get("status").asInt() + " " + e.get("error").asText()));
        assertTrue(errors.contains("POST /auth/oauth/token 400 invalid_grant"), errors.toString());
        assertTrue(errors.contains("POST /auth/oauth/token 401 invalid_client"), errors.toString());
        assertTrue(errors.contains("PUT /events/account/" + f.account().accountId() + "/events/callbacks/1 422 invalid_field")
                || errors.contains("PUT /events/account/" + f.account().accountId() + "/events/callbacks/1 404 not_found"), errors.toString());
        JsonNode tampered = requests("?limit=1000");
        boolean unknownToken = false;
        for (JsonNode e : tampered) {
            unknownToken |= e.get("path").asText().equals("/auth/api/v1/users/me") && e.get("status").asInt() == 401
                    && "invalid_token".equals(e.get("error").asText()) && e.get("client_id").isNull();
        }
        assertTrue(unknownToken, "a call with an unknown token is journaled without a client");
        boolean failedSignIn = false;
        for (JsonNode e : entries) {
            failedSignIn |= e.get("path").asText().equals("/oauth/authorize") && e.get("error_description").isTextual();
        }
        assertTrue(failedSignIn, "the failed sign-in says why: " + entries);
    }

    @Test
    void theJournalKeepsTheNewestEntriesOfItsSize() {
        try (TestServer small = TestServer.start(b -> b.set(Setting.SANDBOX_JOURNAL_SIZE, "5"))) {
            Fixtures g = Fixtures.create(small);
            String token = g.issue().accessToken();
            for (int i = 0; i < 8; i++) small.http.get("/auth/api/v1/users/me", g.bearer(token));
            OAuthFlows.refresh(small, g, "the last call");
            List<JournalEntry> kept = small.services().journal().newest(null, 100);
            assertEquals(5, kept.size(), kept.toString());
            assertEquals("/auth/oauth/token", kept.getFirst().path(), "the newest is kept");
        }
    }

    @Test
    void theTableIsTrimmedOnceATenthOfItsSizeMoreHasBeenWritten() {
        int keep = 20;
        try (TestServer small = TestServer.start(b -> b.set(Setting.SANDBOX_JOURNAL_SIZE, Integer.toString(keep)))) {
            Fixtures g = Fixtures.create(small);
            String token = g.issue().accessToken();
            for (int round = 0; round < 6; round++) {
                for (int i = 0; i < 9; i++) small.http.get("/auth/api/v1/users/me", g.bearer(token));
                small.services().journal().flush();
                long stored = small.services().database().jdbi().withHandle(h ->
                        h.createQuery("select count(*) from sandbox_requests").mapTo(Long.class).one());
                // 54 calls in all, trimmed back to 20 whenever 2 (a tenth of 20) more have been written since the last trim
                assertTrue(stored <= keep + keep / 10 + 9, "round " + round + ": " + stored + " stored");
                assertEquals(Math.min(keep, 9 * (round + 1)), small.services().journal().newest(null, 100).size(), "a read never shows more than the size");
            }
        }
    }
}
