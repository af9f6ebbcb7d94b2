package dev.ledgerlink.oauth;

import dev.ledgerlink.testing.Fixtures;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 7662 at /auth/oauth/introspect over HTTP: the operator key sees every token, a client only its own. */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + IntrospectionTest.KEY)
class IntrospectionTest {
    static final String KEY = "test-operator-key-introspection-0123";
    static TestServer server;
    Fixtures f;

    private static TestHttp.Response asOperator(TestServer server, String form) {
        return server.http.postForm("/auth/oauth/introspect", form, "Authorization", "Bearer " + KEY);
    }

    private static TestHttp.Response asClient(TestServer server, Fixtures f, String token) {
        return server.http.postForm("/auth/oauth/introspect", "token=" + token, "Authorization", basic(f.app().clientId(), f.clientSecret()));
    }

    static String basic(String id, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anActiveAccessTokenIsDescribedToTheOperatorAndToItsOwnClient() {
        TokenPair pair = f.issue();
        for (TestHttp.Response r : new TestHttp.Response[] {asOperator(server, "token=" + pair.accessToken()), asClient(server, f, pair.accessToken())}) {
            assertEquals(200, r.status(), r.body());
            assertEquals("no-store", r.header("Cache-Control"));
            JsonNode b = r.json();
            assertTrue(b.get("active").asBoolean());
            assertEquals(f.app().clientId(), b.get("client_id").asText());
            assertEquals("Bearer", b.get("token_type").asText());
            assertEquals("access_token", b.get("token_use").asText());
            assertEquals(Long.toString(f.user().id()), b.get("sub").asText());
            assertEquals(pair.expiresAt().getEpochSecond(), b.get("exp").asLong());
            assertEquals(pair.createdAt().getEpochSecond(), b.get("iat").asLong());
            assertEquals(String.join(" ", Fixtures.SCOPES.stream().sorted().toList()),
                    String.join(" ", java.util.Arrays.stream(b.get("scope").asText().split(" ")).sorted().toList()));
        }
    }

    @Test
    void aLiveRefreshTokenIsActiveWithoutExpiryAndAUsedOneIsNot() {
        TokenPair pair = f.issue();
        JsonNode live = asOperator(server, "token=" + pair.refreshToken() + "&token_type_hint=refresh_token").json();
        assertTrue(live.get("active").asBoolean(), live.toString());
        assertEquals("refresh_token", live.get("token_use").asText());
        assertFalse(live.has("exp"), "refresh tokens never expire");
        assertEquals(200, OAuthFlows.refresh(server, f, pair.refreshToken()).status());
        assertEquals(Map.of("active", false), inactive(asClient(server, f, pair.refreshToken())));
    }

    @Test
    void expiredRevokedUnknownAndOtherClientsTokensAreOnlyInactive() {
        var other = Fixtures.create(server);
        TokenPair mine = f.issue();
        TokenPair theirs = other.issue();

        assertEquals(Map.of("active", false), inactive(asClient(server, f, theirs.accessToken())), "another client's token");
        assertEquals(Map.of("active", false), inactive(asClient(server, f, theirs.refreshToken())), "another client's refresh token");
        assertEquals(Map.of("active", false), inactive(asClient(server, f, "not-a-token-we-issued")));
        assertEquals(Map.of("active", false), inactive(asClient(server, f, "x".repeat(5000))));

        assertEquals(200, OAuthFlows.revoke(server, f, mine.accessToken()).status());
        assertEquals(Map.of("active", false), inactive(asOperator(server, "token=" + mine.accessToken())));

        TokenPair later = f.issue();
        server.clock.advance(Duration.ofHours(12));
        assertEquals(Map.of("active", false), inactive(asOperator(server, "token=" + later.accessToken())), "expired");
    }

    @Test
    void callersMustAuthenticateAndSendAToken() {
        String token = f.issue().accessToken();
        assertOAuthError(server.http.postForm("/auth/oauth/introspect", "token=" + token), 401, "invalid_client");
        assertOAuthError(server.http.postForm("/auth/oauth/introspect", "token=" + token, "Authorization", "Bearer wrong-key"), 401, "invalid_client");
        assertOAuthError(server.http.postForm("/auth/oauth/introspect", "token=" + token, "Authorization", basic(f.app().clientId(), "wrong")),
                401, "invalid_client");
        assertOAuthError(asOperator(server, "token_type_hint=access_token"), 400, "invalid_request");
        assertOAuthError(server.http.postForm("/auth/oauth/introspect", "client_id=" + f.app().clientId() + "&client_secret=" + f.clientSecret()),
                400, "invalid_request");
        // Client credentials in the body work as at the token endpoint.
        TestHttp.Response body = server.http.postForm("/auth/oauth/introspect",
                "client_id=" + f.app().clientId() + "&client_secret=" + f.clientSecret() + "&token=" + token);
        assertTrue(body.json().get("active").asBoolean(), body.body());
    }

    @Test
    void theMetadataAdvertisesTheEndpoint() {
        JsonNode m = server.http.get("/.well-known/oauth-authorization-server").json();
        assertEquals(server.baseUrl() + "/auth/oauth/introspect", m.get("introspection_endpoint").asText());
        assertTrue(m.get("introspection_endpoint_auth_methods_supported").toString().contains("client_secret_basic"));
    }

    private static Map<String, Object> inactive(TestHttp.Response r) {
        assertEquals(200, r.status(), r.body());
        return TestHttp.JSON.convertValue(r.json(), Map.class);
    }
}
