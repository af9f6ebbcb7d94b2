package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
class TokenEndpointErrorsTest {
    static TestServer server;
    static Fixtures f;

    @Test
    void missingClientCredentialsIs401InvalidClient() {
        var form = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=x");
        assertOAuthError(form, 401, "invalid_client");
        var jsonBody = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "refresh_token", "refresh_token", "x")));
        assertOAuthError(jsonBody, 401, "invalid_client");
    }

    @Test
    void wrongSecretOrUnknownClientIs401AndSaysNoMore() {
        var wrong = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "refresh_token", "refresh_token", "x",
                "client_id", f.app().clientId(), "client_secret", "wrong")));
        assertOAuthError(wrong, 401, "invalid_client");
        var unknown = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=x&client_id=nobody&client_secret=s");
        assertOAuthError(unknown, 401, "invalid_client");
        assertEquals(wrong.json().get("error_description"), unknown.json().get("error_description"));
        assertNull(wrong.header("WWW-Authenticate"));
    }

    @Test
    void failedHttpBasicGetsABasicChallenge() {
        String basic = Base64.getEncoder().encodeToString((f.app().clientId() + ":wrong").getBytes(StandardCharsets.UTF_8));
        var r = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=x", "Authorization", "Basic " + basic);
        assertOAuthError(r, 401, "invalid_client");
        assertTrue(r.header("WWW-Authenticate").startsWith("Basic"));
        var garbage = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token", "Authorization", "Basic !!!");
        assertOAuthError(garbage, 401, "invalid_client");
    }

    @Test
    void bearerHeaderOnTheTokenEndpointIsIgnored() {
        var r = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "refresh_token", "refresh_token", "x",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret())), "Authorization", "Bearer undefined");
        assertOAuthError(r, 400, "invalid_grant");
    }

    @Test
    void clientCredentialsAndUnknownGrantTypesAreUnsupported() {
        for (String grant : new String[] {"client_credentials", "password", "urn:ietf:params:oauth:grant-type:device_code"}) {
            var r = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", grant,
                    "client_id", f.app().clientId(), "client_secret", f.clientSecret())));
            assertOAuthError(r, 400, "unsupported_grant_type");
        }
    }

    @Test
    void missingGrantTypeIsInvalidRequest() {
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of(
                "client_id", f.app().clientId(), "client_secret", f.clientSecret())));
        assertOAuthError(r, 400, "invalid_request");
    }

    @Test
    void malformedJsonIsInvalidRequest() {
        var r = server.http.postJson("/auth/oauth/token", "{\"grant_type\": ");
        assertOAuthError(r, 400, "invalid_request");
        var array = server.http.postJson("/auth/oauth/token", "[1]");
        assertOAuthError(array, 400, "invalid_request");
        var nested = server.http.postJson("/auth/oauth/token", "{\"grant_type\": {\"a\": 1}}");
        assertOAuthError(nested, 400, "invalid_request");
    }

    @Test
    void otherContentTypesAreInvalidRequest() {
        var r = server.http.send(server.http.request("/auth/oauth/token").header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=refresh_token")));
        assertOAuthError(r, 400, "invalid_request");
    }

    @Test
    void repeatedParameterIsInvalidRequest() {
        var r = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&grant_type=authorization_code&client_id="
                + f.app().clientId() + "&client_secret=" + f.clientSecret());
        assertOAuthError(r, 400, "invalid_request");
    }

    @Test
    void twoClientAuthenticationMethodsAtOnceAreInvalidRequest() {
        String basic = Base64.getEncoder().encodeToString((f.app().clientId() + ":" + f.clientSecret()).getBytes(StandardCharsets.UTF_8));
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "refresh_token",
                "refresh_token", "x", "client_secret", f.clientSecret())), "Authorization", "Basic " + basic);
        assertOAuthError(r, 400, "invalid_request");
    }

    @Test
    void errorsNeverEchoTheSecret() {
        var r = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "refresh_token", "refresh_token", "x",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret() + "x")));
        assertFalse(r.body().contains(f.clientSecret()));
    }
}
