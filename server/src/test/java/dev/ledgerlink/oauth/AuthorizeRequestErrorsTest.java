package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 6749 §4.1.2.1: what the authorization page refuses, and whether it may redirect while doing so. */
@LedgerlinkTest
class AuthorizeRequestErrorsTest {
    static TestServer server;
    static Fixtures f;

    private static dev.ledgerlink.testing.TestHttp.Response get(String query) {
        return server.closeFirst(new BrowserSession(server.baseUrl())).get("/oauth/authorize?" + query);
    }

    private static void assertErrorPage(dev.ledgerlink.testing.TestHttp.Response r, String text) {
        assertEquals(400, r.status(), r.body());
        assertNull(r.header("Location"), "never redirected");
        assertTrue(r.header("Content-Type").startsWith("text/html"));
        assertTrue(r.body().contains(text), r.body());
    }

    private static Map<String, String> redirected(Map<String, String> params) {
        Map<String, String> p = new HashMap<>(params);
        p.put("state", "xyz 1/2");
        var r = get(BrowserSession.form(withDefaults(p)));
        assertEquals(302, r.status(), r.body());
        assertTrue(r.header("Location").startsWith(Fixtures.REDIRECT_URI + "?"), r.header("Location"));
        Map<String, String> q = BrowserSession.queryOf(r.header("Location"));
        assertEquals("xyz 1/2", q.get("state"), "state comes back unchanged");
        assertTrue(q.containsKey("error_description"));
        return q;
    }

    private static Map<String, String> withDefaults(Map<String, String> p) {
        Map<String, String> out = new HashMap<>(Map.of("client_id", f.app().clientId(), "redirect_uri", Fixtures.REDIRECT_URI,
                "response_type", "code"));
        out.putAll(p);
        out.values().removeIf(String::isEmpty);
        return out;
    }

    @Test
    void unknownClientIdIsAnErrorPageNeverARedirect() {
        assertErrorPage(get("client_id=nobody&response_type=code&redirect_uri=" + Fixtures.REDIRECT_URI), "No application has the client_id");
    }

    @Test
    void missingClientIdIsAnErrorPage() {
        assertErrorPage(get("response_type=code&redirect_uri=" + Fixtures.REDIRECT_URI), "missing client_id");
    }

    @Test
    void unregisteredRedirectUriIsAnErrorPageNeverARedirect() {
        assertErrorPage(get(BrowserSession.form(withDefaults(Map.of("redirect_uri", "https://evil.example/cb")))), "not registered");
        assertErrorPage(get(BrowserSession.form(withDefaults(Map.of("redirect_uri", Fixtures.REDIRECT_URI + "/")))), "not registered");
    }

    @Test
    void missingRedirectUriIsAnErrorPage() {
        assertErrorPage(get(BrowserSession.form(withDefaults(Map.of("redirect_uri", "")))), "missing redirect_uri");
    }

    @Test
    void repeatedClientIdIsAnErrorPage() {
        assertErrorPage(get("client_id=" + f.app().clientId() + "&client_id=" + f.app().clientId()
                + "&response_type=code&redirect_uri=" + Fixtures.REDIRECT_URI), "more than once");
    }

    @Test
    void missingResponseTypeRedirectsWithInvalidRequest() {
        assertEquals("invalid_request", redirected(Map.of("response_type", "")).get("error"));
    }

    @Test
    void otherResponseTypesRedirectWithUnsupportedResponseType() {
        assertEquals("unsupported_response_type", redirected(Map.of("response_type", "token")).get("error"));
    }

    @Test
    void scopeOutsideTheApplicationsRedirectsWithInvalidScope() {
        assertEquals("invalid_scope", redirected(Map.of("scope", "user:profile:read user:bills:write")).get("error"));
        assertEquals("invalid_scope", redirected(Map.of("scope", "no:such:scope")).get("error"));
    }

    @Test
    void badPkceParametersRedirectWithInvalidRequest() {
        assertEquals("invalid_request", redirected(Map.of("code_challenge", "a".repeat(43), "code_challenge_method", "S512")).get("error"));
        assertEquals("invalid_request", redirected(Map.of("code_challenge", "short")).get("error"));
        assertEquals("invalid_request", redirected(Map.of("code_challenge_method", "S256")).get("error"));
    }

    @Test
    void unknownPromptRedirectsWithInvalidRequest() {
        assertEquals("invalid_request", redirected(Map.of("prompt", "select_account")).get("error"));
    }

    @Test
    void repeatedParameterRedirectsWithInvalidRequest() {
        var r = get(BrowserSession.form(withDefaults(Map.of())) + "&scope=user:profile:read&scope=user:profile:read&state=s");
        assertEquals(302, r.status());
        assertEquals("invalid_request", BrowserSession.queryOf(r.header("Location")).get("error"));
    }

    @Test
    void promptNoneWithoutASessionRedirectsWithLoginRequired() {
        assertEquals("login_required", redirected(Map.of("prompt", "none")).get("error"));
    }

    @Test
    void noStateMeansNoStateInTheRedirect() {
        var r = get(BrowserSession.form(withDefaults(Map.of("response_type", "token"))));
        assertEquals(302, r.status());
        assertTrue(!BrowserSession.queryOf(r.header("Location")).containsKey("state"));
    }

    @Test
    void validRequestShowsTheLoginFormWithPageSecurityHeaders() {
        var r = get(BrowserSession.form(withDefaults(Map.of())));
        assertEquals(200, r.status());
        assertTrue(r.body().contains("Sign in to continue to Invoice Sync"), r.body());
        assertTrue(r.header("Content-Security-Policy").contains("frame-ancestors 'none'"));
        assertEquals("no-store", r.header("Cache-Control"));
        String cookie = r.header("Set-Cookie");
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), cookie);
        assertTrue(!cookie.contains("Secure"), "served over http here: " + cookie);
        var slash = server.closeFirst(new BrowserSession(server.baseUrl())).get("/oauth/authorize/?" + BrowserSession.form(withDefaults(Map.of())));
        assertEquals(200, slash.status(), "/oauth/authorize/ is the same page");
    }
}
