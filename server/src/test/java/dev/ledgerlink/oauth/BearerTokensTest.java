package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
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
        assertTrue(pair.accessToken().length() >= 43 && pair.refreshToken().length() >= 43);
        assertNotEquals(pair.accessToken(), pair.refreshToken());
        long plain = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from oauth_access_tokens where token_hash = :t").bind("t", pair.accessToken()).mapTo(Long.class).one());
        long hashed = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from oauth_access_tokens where token_hash = :t").bind("t", Hashes.sha256Hex(pair.accessToken())).mapTo(Long.class).one());
        assertEquals(0, plain);
        assertEquals(1, hashed);
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
