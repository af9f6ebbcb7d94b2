package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.json;
import static dev.ledgerlink.oauth.OAuthFlows.refresh;
import static dev.ledgerlink.oauth.OAuthFlows.revoke;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
class RevocationTest {
    TestServer server;
    Fixtures f;

    @Test
    void revokingAnAccessTokenEndsThatTokenOnly() {
        TokenPair pair = f.issue();
        var r = revoke(server, f, pair.accessToken());
        assertEquals(200, r.status(), r.body());
        assertEquals("{}", r.body());
        assertEquals(401, apiStatus(server, pair.accessToken()));
        assertEquals(200, refresh(server, f, pair.refreshToken()).status());
    }

    @Test
    void revokingARefreshTokenEndsItAndTheAccessTokensIssuedWithIt() {
        TokenPair pair = f.issue();
        String second = refresh(server, f, pair.refreshToken()).json().get("access_token").asText();
        String live = f.issue(pair.scopes()).refreshToken();
        TokenPair third = f.issue();
        assertEquals(200, revoke(server, f, third.refreshToken()).status());
        assertEquals(401, apiStatus(server, third.accessToken()));
        assertOAuthError(refresh(server, f, third.refreshToken()), 400, "invalid_grant");
        assertEquals(200, apiStatus(server, second), "another authorization's access token is untouched");
        assertEquals(200, apiStatus(server, pair.accessToken()));
        assertOAuthError(refresh(server, f, live), 400, "invalid_grant");
    }

    @Test
    void unknownTokenIsAnswered200WithEmptyBody() {
        var r = revoke(server, f, "never-issued");
        assertEquals(200, r.status());
        assertEquals("{}", r.body());
    }

    @Test
    void tokenOfAnotherApplicationIsLeftAlone() {
        TokenPair pair = f.issue();
        Fixtures other = Fixtures.create(server);
        var r = revoke(server, other, pair.accessToken());
        assertEquals(200, r.status());
        assertEquals(200, revoke(server, other, pair.refreshToken()).status());
        assertEquals(200, apiStatus(server, pair.accessToken()));
        assertEquals(200, refresh(server, f, pair.refreshToken()).status());
    }

    @Test
    void revocationNeedsClientAuthentication() {
        TokenPair pair = f.issue();
        var none = server.http.postJson("/auth/oauth/revoke", json(Map.of("token", pair.accessToken())));
        assertOAuthError(none, 401, "invalid_client");
        var wrong = server.http.postForm("/auth/oauth/revoke", BrowserSession.form(Map.of("token", pair.accessToken(),
                "client_id", f.app().clientId(), "client_secret", "wrong")));
        assertOAuthError(wrong, 401, "invalid_client");
        assertEquals(200, apiStatus(server, pair.accessToken()));
    }

    @Test
    void missingTokenIsInvalidRequest() {
        var r = server.http.postJson("/auth/oauth/revoke", json(Map.of("client_id", f.app().clientId(), "client_secret", f.clientSecret())));
        assertOAuthError(r, 400, "invalid_request");
    }

    @Test
    void formBodyWithBasicAuthAndHintWorks() {
        TokenPair pair = f.issue();
        String basic = Base64.getEncoder().encodeToString((f.app().clientId() + ":" + f.clientSecret()).getBytes(StandardCharsets.UTF_8));
        var r = server.http.postForm("/auth/oauth/revoke", BrowserSession.form(Map.of("token", pair.refreshToken(),
                "token_type_hint", "refresh_token")), "Authorization", "Basic " + basic);
        assertEquals(200, r.status(), r.body());
        assertEquals(401, apiStatus(server, pair.accessToken()));
    }
}
