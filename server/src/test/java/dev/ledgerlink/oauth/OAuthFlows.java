package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.LinkedHashMap;
import java.util.Map;

/** The steps of the authorization code flow as a client and a user take them, over real HTTP. */
public final class OAuthFlows {
    private OAuthFlows() {}

    public static String authorizeUrl(Fixtures f, Map<String, String> extra) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("client_id", f.app().clientId());
        p.put("response_type", "code");
        p.put("redirect_uri", Fixtures.REDIRECT_URI);
        p.putAll(extra);
        p.values().removeIf(v -> v == null);
        return "/oauth/authorize?" + BrowserSession.form(p);
    }

    /** Logs in, authorizes, and returns the code the browser was sent back with. */
    public static String code(TestServer server, Fixtures f, Map<String, String> extra) {
        BrowserSession browser = server.closeFirst(new BrowserSession(server.baseUrl()));
        browser.get(authorizeUrl(f, extra));
        browser.logIn(f.user().email(), f.password());
        if (browser.last.status() == 200) browser.authorize();
        assertEquals(303, browser.last.status(), browser.last.body());
        return browser.redirectParams().get("code");
    }

    public static String code(TestServer server, Fixtures f) {
        return code(server, f, Map.of("state", "s1"));
    }

    public static TestHttp.Response exchange(TestServer server, Fixtures f, String code) {
        return server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code,
                "redirect_uri", Fixtures.REDIRECT_URI)));
    }

    public static TestHttp.Response refresh(TestServer server, Fixtures f, String refreshToken) {
        return server.http.postJson("/auth/oauth/token", json(Map.of("grant_type", "refresh_token",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "refresh_token", refreshToken,
                "redirect_uri", Fixtures.REDIRECT_URI)));
    }

    public static TestHttp.Response revoke(TestServer server, Fixtures f, String token) {
        return server.http.postJson("/auth/oauth/revoke", json(Map.of(
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "token", token)));
    }

    public static String json(Map<String, ?> fields) {
        try {
            return TestHttp.JSON.writeValueAsString(fields);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static void assertOAuthError(TestHttp.Response r, int status, String error) {
        assertEquals(status, r.status(), r.body());
        JsonNode body = r.json();
        assertEquals(error, body.get("error").asText(), r.body());
        if (!body.hasNonNull("error_description")) throw new AssertionError("no error_description: " + r.body());
        assertEquals("no-store", r.header("Cache-Control"));
    }

    public static int apiStatus(TestServer server, String accessToken) {
        return server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + accessToken).status();
    }
}
