package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.code;
import static dev.ledgerlink.oauth.OAuthFlows.exchange;
import static dev.ledgerlink.oauth.OAuthFlows.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
class AuthorizationCodeGrantTest {
    TestServer server;
    Fixtures f;

    @Test
    void codeExchangeWithFormBodyReturnsTheTokenResponse() {
        var r = exchange(server, f, code(server, f));
        assertEquals(200, r.status(), r.body());
        JsonNode t = r.json();
        assertEquals("Bearer", t.get("token_type").asText());
        assertEquals(43200, t.get("expires_in").asInt());
        assertTrue(t.get("access_token").asText().length() >= 43);
        assertTrue(t.get("refresh_token").asText().length() >= 43);
        assertEquals(String.join(" ", Fixtures.SCOPES), t.get("scope").asText());
        assertEquals(server.clock.instant().getEpochSecond(), t.get("created_at").asLong());
        assertEquals("no-store", r.header("Cache-Control"));
        assertEquals(200, apiStatus(server, t.get("access_token").asText()));
    }

    @Test
    void codeExchangeWithJsonBodyAndAStrayBearerHeaderWorks() {
        String code = code(server, f);
        var r = server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code,
                "redirect_uri", Fixtures.REDIRECT_URI)), "Authorization", "Bearer undefined");
        assertEquals(200, r.status(), r.body());
    }

    @Test
    void clientMayAuthenticateWithHttpBasic() {
        String code = code(server, f);
        String basic = Base64.getEncoder().encodeToString((f.app().clientId() + ":" + f.clientSecret()).getBytes(StandardCharsets.UTF_8));
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "code", code, "redirect_uri", Fixtures.REDIRECT_URI)), "Authorization", "Basic " + basic);
        assertEquals(200, r.status(), r.body());
    }

    @Test
    void secondUseOfACodeFailsAndRevokesWhatTheFirstUseIssued() {
        String code = code(server, f);
        JsonNode first = exchange(server, f, code).json();
        var second = exchange(server, f, code);
        assertOAuthError(second, 400, "invalid_grant");
        assertTrue(second.json().get("error_description").asText().contains("already used"), second.body());
        assertEquals(401, apiStatus(server, first.get("access_token").asText()));
        assertOAuthError(OAuthFlows.refresh(server, f, first.get("refresh_token").asText()), 400, "invalid_grant");
    }

    @Test
    void codeExpiresAfterTenMinutes() {
        String code = code(server, f);
        server.clock.advance(Duration.ofMinutes(10));
        var r = exchange(server, f, code);
        assertOAuthError(r, 400, "invalid_grant");
        assertTrue(r.json().get("error_description").asText().startsWith("code expired"), r.body());
        assertTrue(r.json().get("error_description").asText().endsWith(" (codes live 10 minutes)"), r.body());
    }

    @Test
    @ServerSettings("oauth.code-ttl=PT90S")
    void theExpiryRefusalSaysHowLongCodesLiveOnThisServer(TestServer server) {
        String code = code(server, f);
        server.clock.advance(Duration.ofSeconds(90));
        var r = exchange(server, f, code);
        assertOAuthError(r, 400, "invalid_grant");
        String description = r.json().get("error_description").asText();
        assertTrue(description.startsWith("code expired at "), r.body());
        assertTrue(description.endsWith(" (codes live 1 minute 30 seconds)"), r.body());
    }

    @Test
    void aLifetimeInWordsNamesEachUnitThatCounts() {
        assertEquals("10 minutes", AuthorizationCodeGrant.inWords(Duration.ofMinutes(10)));
        assertEquals("1 minute 30 seconds", AuthorizationCodeGrant.inWords(Duration.ofSeconds(90)));
        assertEquals("1 hour", AuthorizationCodeGrant.inWords(Duration.ofHours(1)));
        assertEquals("26 hours 1 second", AuthorizationCodeGrant.inWords(Duration.ofDays(1).plusHours(2).plusSeconds(1)));
        assertEquals("1 second 500 milliseconds", AuthorizationCodeGrant.inWords(Duration.ofMillis(1500)));
    }

    @Test
    void redirectUriMustBeTheOneOfTheAuthorizationRequest() {
        String code = code(server, f);
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code,
                "redirect_uri", "http://127.0.0.1:9/other")));
        assertOAuthError(r, 400, "invalid_grant");
        assertEquals("redirect_uri differs from the authorization request", r.json().get("error_description").asText());
    }

    @Test
    void missingCodeOrRedirectUriIsInvalidRequest() {
        var noCode = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "redirect_uri", Fixtures.REDIRECT_URI)));
        assertOAuthError(noCode, 400, "invalid_request");
        var noRedirect = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", "abc")));
        assertOAuthError(noRedirect, 400, "invalid_request");
    }

    @Test
    void unknownCodeIsInvalidGrant() {
        var r = exchange(server, f, "no-such-code");
        assertOAuthError(r, 400, "invalid_grant");
        assertEquals("authorization code is unknown", r.json().get("error_description").asText());
    }

    @Test
    void codeOfAnotherClientIsRefused() {
        String code = code(server, f);
        Fixtures other = Fixtures.create(server);
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", other.app().clientId(), "client_secret", other.clientSecret(), "code", code,
                "redirect_uri", Fixtures.REDIRECT_URI)));
        assertOAuthError(r, 400, "invalid_grant");
        assertEquals("authorization code was issued to another client", r.json().get("error_description").asText());
        assertEquals(200, exchange(server, f, code).status(), "the rightful client can still use it");
    }

    @Test
    void pkceS256VerifierIsAccepted() {
        String verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier.getBytes(StandardCharsets.US_ASCII)));
        assertEquals("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", challenge, "RFC 7636 appendix B");
        String code = code(server, f, Map.of("code_challenge", challenge, "code_challenge_method", "S256"));
        assertEquals(200, exchangeWithVerifier(code, verifier).status());
    }

    @Test
    void pkcePlainVerifierIsAccepted() {
        String verifier = "a".repeat(43);
        String code = code(server, f, Map.of("code_challenge", verifier, "code_challenge_method", "plain"));
        assertEquals(200, exchangeWithVerifier(code, verifier).status());
    }

    @Test
    void wrongOrMissingPkceVerifierIsRefusedAndTheCodeStaysUnused() {
        String verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier.getBytes(StandardCharsets.US_ASCII)));
        String code = code(server, f, Map.of("code_challenge", challenge, "code_challenge_method", "S256"));
        var wrong = exchangeWithVerifier(code, "x".repeat(43));
        assertOAuthError(wrong, 400, "invalid_grant");
        assertTrue(wrong.json().get("error_description").asText().contains("code_verifier does not match"));
        var missing = exchange(server, f, code);
        assertOAuthError(missing, 400, "invalid_grant");
        assertTrue(missing.json().get("error_description").asText().contains("code_verifier is required"));
        assertEquals(200, exchangeWithVerifier(code, verifier).status());
    }

    @Test
    void verifierWithoutChallengeIsRefused() {
        String code = code(server, f);
        var r = exchangeWithVerifier(code, "a".repeat(43));
        assertOAuthError(r, 400, "invalid_grant");
    }

    private dev.ledgerlink.testing.TestHttp.Response exchangeWithVerifier(String code, String verifier) {
        return server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code,
                "redirect_uri", Fixtures.REDIRECT_URI, "code_verifier", verifier)));
    }
}
