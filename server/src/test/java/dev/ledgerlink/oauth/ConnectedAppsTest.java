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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

    /**
     * A code issued before the disconnect is revoked, not merely expired: refused also by a node whose
     * clock is behind the one that disconnected (here the same server, its clock set back five minutes).
     */
    @Test
    void aCodeIssuedBeforeTheDisconnectCannotBeExchangedAfterItWhateverTheClock(Fixtures f) {
        authorized(f);
        String code = OAuthFlows.code(server, f);   // consent remembered: straight back with a code
        BrowserSession b = signedIn(f);
        String csrf = b.api("GET", API).json().get("csrf_token").asText();
        server.clock.advance(java.time.Duration.ofMinutes(5));
        try {
            assertEquals(200, b.api("DELETE", API + "/" + f.app().clientId(), "X-CSRF-Token", csrf).status());
        } finally {
            server.clock.advance(java.time.Duration.ofMinutes(-5));
        }
        TestHttp.Response refused = OAuthFlows.exchange(server, f, code);
        OAuthFlows.assertOAuthError(refused, 400, "invalid_grant");
        assertTrue(refused.json().get("error_description").asText().matches("authorization code was revoked at .*: the user disconnected the application"),
                refused.body());
    }

    /**
     * A disconnect racing many exchanges of the pair's codes (each code its own, issued before the race):
     * whichever way each exchange and the disconnect interleave, every exchange is answered 200 or
     * invalid_grant and no token any of them got is live once all have answered. An exchange that passed
     * its code check before the disconnect committed must not finish after it with tokens the
     * disconnect never saw. Several rounds, each a new pair, to make the interleavings likely.
     */
    @Test
    void noTokenOfACodeExchangeRacingADisconnectStaysLive() throws Exception {
        int exchanges = 12;
        for (int round = 0; round < 6; round++) {
            Fixtures g = Fixtures.create(server);
            BrowserSession browser = server.closeFirst(new BrowserSession(server.baseUrl()));
            browser.get(OAuthFlows.authorizeUrl(g, Map.of("state", "s0")));
            browser.logIn(g.user().email(), g.password());
            browser.authorize();   // the consent: the pair is connected
            List<String> codes = new ArrayList<>();
            while (true) {
                codes.add(browser.redirectParams().get("code"));   // back to the application with a code
                if (codes.size() == exchanges) break;
                browser.get(OAuthFlows.authorizeUrl(g, Map.of("state", "s" + codes.size())));   // signed in, consent remembered
            }
            String disconnect = "/internal/v1/admin/users/" + g.user().id() + "/connected-apps/" + g.app().clientId() + "/disconnect";

            CountDownLatch ready = new CountDownLatch(exchanges + 1);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<TestHttp.Response>> answers = new ArrayList<>();
            Future<TestHttp.Response> disconnected;
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (String code : codes) {
                    answers.add(pool.submit(() -> {
                        ready.countDown();
                        go.await();
                        return OAuthFlows.exchange(server, g, code);
                    }));
                }
                disconnected = pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return server.http.postJson(disconnect, "", "Authorization", "Bearer " + KEY);
                });
                ready.await();
                go.countDown();
            }
            assertEquals(200, disconnected.get().status(), disconnected.get().body());
            List<JsonNode> issued = new ArrayList<>();
            for (Future<TestHttp.Response> a : answers) {
                TestHttp.Response r = a.get();
                if (r.status() == 200) {
                    issued.add(r.json());
                } else {
                    OAuthFlows.assertOAuthError(r, 400, "invalid_grant");
                }
            }
            for (JsonNode t : issued) {
                assertEquals(401, OAuthFlows.apiStatus(server, t.get("access_token").asText()), "round " + round + ": an access token stayed live");
                OAuthFlows.assertOAuthError(OAuthFlows.refresh(server, g, t.get("refresh_token").asText()), 400, "invalid_grant");
            }
            assertEquals(0, server.services().tokens().liveRefreshTokens(g.user().id(), g.app().id()), "round " + round);
            long liveAccess = server.services().database().jdbi().withHandle(h -> h.createQuery("""
                            select count(*) from oauth_access_tokens where user_id = :user and application_id = :app and revoked_at is null""")
                    .bind("user", g.user().id()).bind("app", g.app().id()).mapTo(Long.class).one());
            assertEquals(0, liveAccess, "round " + round + ": access tokens of the pair not revoked");
        }
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
