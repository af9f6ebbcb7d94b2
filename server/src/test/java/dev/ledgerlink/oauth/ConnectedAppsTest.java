package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A user's connected applications over HTTP: the account page's JSON API with the hosted sign-in's
 * session (CSRF-protected), and the admin API for operators. Disconnecting ends every token of the
 * pair at once and forgets the consent (the next authorization asks again); its audit line is
 * AuditTrailTest's.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + ConnectedAppsTest.KEY)
class ConnectedAppsTest {
    static final String KEY = "test-operator-key-connected-apps-0123";
    static final String API = "/oauth/account/api/connected-apps";

    TestServer server;

    /** The user authorized the application on the page, and its client exchanged the code. */
    private JsonNode authorized(Fixtures f) {
        var tokens = OAuthFlows.exchange(server, f, OAuthFlows.code(server, f));
        assertEquals(200, tokens.status(), tokens.body());
        return tokens.json();
    }

    /** A browser signed in on the account page. */
    private BrowserSession signedIn(Fixtures f) {
        BrowserSession b = server.closeFirst(new BrowserSession(server.baseUrl()));
        b.get("/oauth/account");
        b.logIn(f.user().email(), f.password());
        assertEquals(303, b.last.status(), b.last.body());
        return b;
    }

    @Test
    void theUserSeesWhatTheyAuthorizedInWordsWithSinceAndLastUse(Fixtures f) {
        JsonNode tokens = authorized(f);
        BrowserSession b = signedIn(f);
        JsonNode list = b.api("GET", API).json();
        JsonNode app = list.get("connected_apps").get(0);
        assertEquals(1, list.get("connected_apps").size());
        assertEquals(f.app().clientId(), app.get("client_id").asText());
        assertEquals("Invoice Sync", app.get("name").asText());
        List<String> words = new java.util.ArrayList<>();
        app.get("scopes").forEach(s -> words.add(s.get("description").asText()));
        assertTrue(words.contains("See your invoices and recurring invoices"), words.toString());
        String firstUse = app.get("last_used_at").asText();
        assertFalse(app.get("connected_at").asText().isEmpty());
        assertFalse(list.get("csrf_token").asText().isEmpty());

        server.clock.advance(java.time.Duration.ofMinutes(5));
        assertEquals(200, OAuthFlows.refresh(server, f, tokens.get("refresh_token").asText()).status());
        String afterRefresh = b.api("GET", API).json().get("connected_apps").get(0).get("last_used_at").asText();
        assertNotEquals(firstUse, afterRefresh, "last used: when the live refresh token was issued");
    }

    @Test
    void disconnectingEndsTheTokensAtOnceForgetsTheConsentAndIsAudited(Fixtures f) {
        JsonNode tokens = authorized(f);
        String access = tokens.get("access_token").asText();
        String refresh = tokens.get("refresh_token").asText();
        assertEquals(200, OAuthFlows.apiStatus(server, access));
        BrowserSession b = signedIn(f);
        String csrf = b.api("GET", API).json().get("csrf_token").asText();

        TestHttp.Response withoutCsrf = b.api("DELETE", API + "/" + f.app().clientId());
        assertEquals(403, withoutCsrf.status(), withoutCsrf.body());
        assertEquals(200, OAuthFlows.apiStatus(server, access), "nothing changed without the CSRF token");

        TestHttp.Response done = b.api("DELETE", API + "/" + f.app().clientId(), "X-CSRF-Token", csrf);
        assertEquals(200, done.status(), done.body());
        assertEquals(2, done.json().get("disconnected").get("tokens_revoked").asInt(), "the refresh token and the access token");

        assertEquals(401, OAuthFlows.apiStatus(server, access));
        OAuthFlows.assertOAuthError(OAuthFlows.refresh(server, f, refresh), 400, "invalid_grant");
        assertEquals(0, b.api("GET", API).json().get("connected_apps").size());

        BrowserSession again = server.closeFirst(new BrowserSession(server.baseUrl()));
        again.get(OAuthFlows.authorizeUrl(f, Map.of()));
        again.logIn(f.user().email(), f.password());
        assertEquals(200, again.last.status(), "the consent page again, not a silent redirect: " + again.last.body());
        assertTrue(again.last.body().contains("id=\"authorize\""), again.last.body());

        TestHttp.Response twice = b.api("DELETE", API + "/" + f.app().clientId(), "X-CSRF-Token", csrf);
        assertEquals(404, twice.status(), "no longer connected: " + twice.body());
    }

    @Test
    void aCodeIssuedBeforeTheDisconnectCannotBeExchangedAfterIt(Fixtures f) {
        authorized(f);
        String code = OAuthFlows.code(server, f);   // consent remembered: straight back with a code
        BrowserSession b = signedIn(f);
        String csrf = b.api("GET", API).json().get("csrf_token").asText();
        assertEquals(200, b.api("DELETE", API + "/" + f.app().clientId(), "X-CSRF-Token", csrf).status());
        OAuthFlows.assertOAuthError(OAuthFlows.exchange(server, f, code), 400, "invalid_grant");
    }

    @Test
    void theApiNeedsASignedInSession(Fixtures f) {
        authorized(f);
        BrowserSession anonymous = server.closeFirst(new BrowserSession(server.baseUrl()));
        assertEquals(401, anonymous.api("GET", API).status());
        assertEquals(401, anonymous.api("DELETE", API + "/" + f.app().clientId(), "X-CSRF-Token", "x").status());
        TestHttp.Response bearer = server.http.get(API, f.bearer(f.issue().accessToken()));
        assertEquals(401, bearer.status(), "an access token is not a session: " + bearer.body());
    }

    @Test
    void anOperatorListsAndDisconnectsForAUser(Fixtures f) {
        JsonNode tokens = authorized(f);
        String[] operator = {"Authorization", "Bearer " + KEY};
        String path = "/internal/v1/admin/users/" + f.user().id() + "/connected-apps";
        TestHttp.Response list = server.http.get(path, operator);
        assertEquals(200, list.status(), list.body());
        assertEquals(f.app().clientId(), list.json().get("connected_apps").get(0).get("client_id").asText());
        assertEquals(401, server.http.get(path).status());

        TestHttp.Response done = server.http.postJson(path + "/" + f.app().clientId() + "/disconnect", "", operator);
        assertEquals(200, done.status(), done.body());
        assertEquals(401, OAuthFlows.apiStatus(server, tokens.get("access_token").asText()));
        assertEquals(404, server.http.postJson(path + "/" + f.app().clientId() + "/disconnect", "", operator).status());
        assertEquals(404, server.http.get("/internal/v1/admin/users/999999999/connected-apps", operator).status());
    }

    @Test
    void theCliListsAndDisconnectsForAUser(Fixtures f) {
        JsonNode tokens = authorized(f);
        JsonNode list = ServerCli.json(server, "users", "connected-apps", "--user", f.user().email(), "--json");
        assertEquals(f.app().clientId(), list.at("/connected_apps/0/client_id").asText());
        JsonNode done = ServerCli.json(server, "users", "disconnect-app", "--user", Long.toString(f.user().id()), "--app", f.app().clientId(), "--json");
        assertEquals(2, done.at("/disconnected/tokens_revoked").asInt());
        assertEquals(401, OAuthFlows.apiStatus(server, tokens.get("access_token").asText()), "at once, though another process did it");
        assertEquals(0, ServerCli.json(server, "users", "connected-apps", "--user", f.user().email(), "--json").get("connected_apps").size());
        Cli.Result again = ServerCli.run(server, "users", "disconnect-app", "--user", f.user().email(), "--app", f.app().clientId());
        assertEquals(2, again.exitCode(), "no longer connected");
        assertTrue(again.err().contains("No connected application"), again.err());
    }
}
