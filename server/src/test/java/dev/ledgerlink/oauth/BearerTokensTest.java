package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
class BearerTokensTest {
    TestServer server;
    Fixtures f;

    @Test
    void issuedAccessTokenAuthenticatesApiCalls() {
        TokenPair pair = f.issue();
        var r = server.http.get("/auth/api/v1/users/me", f.bearer(pair.accessToken()));
        assertEquals(200, r.status(), r.body());
        assertEquals(f.user().id(), r.json().at("/response/id").asLong());
        var principal = server.services().accessTokens().verify(pair.accessToken()).orElseThrow();
        assertEquals(f.app().id(), principal.applicationId());
        assertTrue(principal.hasScope("user:invoices:read"));
    }

    @Test
    void tokensAreAtLeast256BitsAndStoredOnlyAsHashes() {
        TokenPair pair = f.issue();
        assertNotEquals(pair.accessToken(), pair.refreshToken());
        for (String token : List.of(pair.accessToken(), pair.refreshToken())) {
            String table = token.equals(pair.accessToken()) ? "oauth_access_tokens" : "oauth_refresh_tokens";
            assertEquals(TokenFormat.LENGTH, token.length(), token);
            byte[] raw = Base64.getUrlDecoder().decode(token);
            byte[] secret = Arrays.copyOfRange(raw, 16, raw.length);
            assertEquals(32, secret.length);   // 256 random bits after the 16-byte selector
            for (byte[] notStored : List.of(token.getBytes(StandardCharsets.UTF_8), Hashes.sha256(token), secret)) {
                assertEquals(0, count(table, notStored), table);
            }
            byte[] stored = server.services().database().jdbi().withHandle(h -> h.createQuery(
                    "select token_hash from " + table + " where token_hash = :t").bind("t", Hashes.sha256(secret)).mapTo(byte[].class).one());
            assertEquals(32, stored.length, table);   // the SHA-256 of the secret, as bytes
        }
    }

    private long count(String table, byte[] value) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from " + table + " where token_hash = :t").bind("t", value).mapTo(Long.class).one());
    }

    @Test
    void accessTokenStopsWorkingAfterTwelveHours() {
        TokenPair pair = f.issue();
        server.clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(pair.accessToken())).status());
        server.clock.advance(Duration.ofSeconds(1));
        var r = server.http.get("/auth/api/v1/users/me", f.bearer(pair.accessToken()));
        assertEquals(401, r.status());
        assertTrue(r.header("WWW-Authenticate").startsWith("Bearer error=\"invalid_token\""));
    }

    @Test
    void unknownOrMissingTokenIs401WithBearerChallenge() {
        var unknown = server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer not-a-token");
        assertEquals(401, unknown.status());
        assertTrue(unknown.header("WWW-Authenticate").contains("invalid_token"));
        assertEquals(401, server.http.get("/auth/api/v1/users/me").status());
    }

    @Test
    void anyNewIssueSupersedesTheOlderRefreshTokenOfThatUserAndApplication() {
        f.issue();
        f.issue();
        f.issue();
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
    }

    @Test
    void severalAccessTokensStayValidAtOnce() {
        TokenPair first = f.issue();
        TokenPair second = f.issue();
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(first.accessToken())).status());
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(second.accessToken())).status());
    }
}
