package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.code;
import static dev.ledgerlink.oauth.OAuthFlows.exchange;
import static dev.ledgerlink.oauth.OAuthFlows.refresh;
import static dev.ledgerlink.oauth.OAuthFlows.revoke;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
class RefreshTokenGrantTest {
    TestServer server;
    Fixtures f;

    @Test
    void refreshIssuesANewPairAndTheOldAccessTokenStaysValid() {
        JsonNode first = exchange(server, f, code(server, f)).json();
        var r = refresh(server, f, first.get("refresh_token").asText());
        assertEquals(200, r.status(), r.body());
        JsonNode second = r.json();
        assertNotEquals(first.get("refresh_token").asText(), second.get("refresh_token").asText());
        assertEquals(43200, second.get("expires_in").asInt());
        assertEquals(first.get("scope").asText(), second.get("scope").asText());
        assertEquals(200, apiStatus(server, second.get("access_token").asText()));
        assertEquals(200, apiStatus(server, first.get("access_token").asText()), "several access tokens are valid at once");
    }

    @Test
    void refreshTokenIsSingleUseAndTheRetryInsideTheWindowIsOnlyRefused() {
        TokenPair pair = f.issue();
        JsonNode next = refresh(server, f, pair.refreshToken()).json();
        server.clock.advance(Duration.ofSeconds(30));
        var again = refresh(server, f, pair.refreshToken());
        assertOAuthError(again, 400, "invalid_grant");
        String description = again.json().get("error_description").asText();
        assertTrue(description.startsWith("refresh token was already used at "), description);
        assertTrue(description.contains("; a newer one was issued"), description);
        assertEquals(200, apiStatus(server, next.get("access_token").asText()), "inside the window nothing is revoked");
        assertEquals(200, refresh(server, f, next.get("refresh_token").asText()).status());
    }

    @Test
    void replayAfterTheWindowRevokesTheWholeGrant() {
        TokenPair pair = f.issue();
        JsonNode next = refresh(server, f, pair.refreshToken()).json();
        server.clock.advance(Duration.ofSeconds(31));
        var replay = refresh(server, f, pair.refreshToken());
        assertOAuthError(replay, 400, "invalid_grant");
        assertTrue(replay.json().get("error_description").asText().contains("treated as stolen"), replay.body());
        assertEquals(401, apiStatus(server, next.get("access_token").asText()));
        assertEquals(401, apiStatus(server, pair.accessToken()));
        var live = refresh(server, f, next.get("refresh_token").asText());
        assertOAuthError(live, 400, "invalid_grant");
        assertTrue(live.json().get("error_description").asText().contains("revoked"), live.body());
    }

    @Test
    void onlyOneRefreshTokenPerUserAndApplicationIsEverLive() {
        TokenPair a = f.issue();
        String b = exchange(server, f, code(server, f)).json().get("refresh_token").asText();
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
        var old = refresh(server, f, a.refreshToken());
        assertOAuthError(old, 400, "invalid_grant");
        assertTrue(old.json().get("error_description").asText().contains("superseded"), old.body());
        String c = refresh(server, f, b).json().get("refresh_token").asText();
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
        assertEquals(200, refresh(server, f, c).status());
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
    }

    @Test
    void refreshTokensNeverExpire() {
        TokenPair pair = f.issue();
        server.clock.advance(Duration.ofDays(400));
        assertEquals(401, apiStatus(server, pair.accessToken()));
        var r = refresh(server, f, pair.refreshToken());
        assertEquals(200, r.status(), r.body());
        assertEquals(200, apiStatus(server, r.json().get("access_token").asText()));
    }

    @Test
    void refreshTokenOfAnotherClientIsRefusedAndLeftLive() {
        TokenPair pair = f.issue();
        Fixtures other = Fixtures.create(server);
        var r = refresh(server, other, pair.refreshToken());
        assertOAuthError(r, 400, "invalid_grant");
        assertEquals("refresh token was issued to another client", r.json().get("error_description").asText());
        assertEquals(200, refresh(server, f, pair.refreshToken()).status());
    }

    @Test
    void missingOrUnknownRefreshTokenIsRefused() {
        var missing = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "refresh_token",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret())));
        assertOAuthError(missing, 400, "invalid_request");
        var unknown = refresh(server, f, "nope");
        assertOAuthError(unknown, 400, "invalid_grant");
        assertEquals("refresh token is unknown", unknown.json().get("error_description").asText());
    }

    /**
     * The guards are checked in their order, and the first that fails names the refusal: a revoked
     * token is "revoked" to its client and "another client's" to any other; a wrong secret for a real
     * token's selector is "unknown", whatever that token's state.
     */
    @Test
    void theFirstGuardThatFailsNamesTheRefusal() {
        TokenPair pair = f.issue();
        assertEquals(200, revoke(server, f, pair.refreshToken()).status());
        var mine = refresh(server, f, pair.refreshToken());
        assertOAuthError(mine, 400, "invalid_grant");
        assertTrue(mine.json().get("error_description").asText().startsWith("refresh token was revoked at "), mine.body());
        var theirs = refresh(server, Fixtures.create(server), pair.refreshToken());
        assertEquals("refresh token was issued to another client", theirs.json().get("error_description").asText());

        TokenPair live = f.issue();
        TokenFormat format = server.services().tokens().format();
        TokenFormat.Selected selected = (TokenFormat.Selected) format.parse(live.refreshToken());
        String forged = format.encode(TokenFormat.Kind.REFRESH, selected.id(), TokenFormat.newSecret());
        var wrongSecret = refresh(server, f, forged);
        assertEquals("refresh token is unknown", wrongSecret.json().get("error_description").asText());
        assertEquals(200, refresh(server, f, live.refreshToken()).status(), "a wrong secret leaves the token live");
    }
}
