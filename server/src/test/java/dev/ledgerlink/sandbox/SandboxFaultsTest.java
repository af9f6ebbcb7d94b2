package dev.ledgerlink.sandbox;

import static dev.ledgerlink.oauth.OAuthFlows.assertOAuthError;
import static dev.ledgerlink.oauth.OAuthFlows.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Development mode's fault rules over HTTP (docs/sandbox.md, "Faults"): each effect in the route's
 * documented error shape, saying a sandbox rule produced it; times, client_id and grant_type
 * matching; clearing; 422 for bad rules; the operator key; 404 outside development mode.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + SandboxFaultsTest.OPERATOR_KEY)
class SandboxFaultsTest {
    static final String OPERATOR_KEY = "operator-key-for-the-sandbox-tests-0123456789";
    static final String[] OPERATOR = {"Authorization", "Bearer " + OPERATOR_KEY};
    static TestServer server;
    Fixtures f;

    @BeforeEach
    void noRules() {
        server.services().faults().clear();
    }

    static JsonNode addRule(String json) {
        TestHttp.Response r = server.http.postJson("/sandbox/v1/faults", json, OPERATOR);
        assertEquals(201, r.status(), r.body());
        return r.json().get("fault");
    }

    private TestHttp.Response refresh(String refreshToken) {
        return OAuthFlows.refresh(server, f, refreshToken);
    }

    @Test
    void a503RuleAnswersTheTokenEndpointTwiceAsOAuthErrorsWithRetryAfterThenLetsItThrough() {
        JsonNode rule = addRule("{\"route\": \"token\", \"effect\": {\"status\": 503, \"retry_after\": 2}, \"times\": 2}");
        assertEquals(2, rule.get("remaining").asInt());
        String refreshToken = f.issue().refreshToken();
        for (int i = 0; i < 2; i++) {
            TestHttp.Response r = refresh(refreshToken);
            assertOAuthError(r, 503, "temporarily_unavailable");
            assertEquals("2", r.header("Retry-After"));
            assertTrue(r.json().get("error_description").asText().contains("sandbox fault rule " + rule.get("id").asLong()), r.body());
        }
        assertEquals(200, refresh(refreshToken).status(), "the rule took its two requests; the refresh token was not used by them");
        JsonNode listed = server.http.get("/sandbox/v1/faults", OPERATOR).json().get("faults").get(0);
        assertEquals(0, listed.get("remaining").asInt());
        assertEquals(2, listed.get("times").asInt());
    }

    @Test
    void a429RuleOnIdentityIsTheApiErrorBodyWithRetryAfterOfOneSecondByDefault() {
        addRule("{\"route\": \"identity\", \"effect\": {\"status\": 429}}");
        String token = f.issue().accessToken();
        TestHttp.Response r = server.http.get("/auth/api/v1/users/me", f.bearer(token));
        assertEquals(429, r.status(), r.body());
        assertEquals("1", r.header("Retry-After"));
        assertEquals("too_many_requests", r.json().get("error").asText());
        assertEquals(429, r.json().get("errno").asInt());
        assertTrue(r.json().get("message").asText().contains("sandbox fault rule"), r.body());
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(token)).status(), "times defaults to 1");
    }

    @Test
    void statusRulesOnTheOtherRoutesUseEachRoutesShape() {
        addRule("{\"route\": \"revoke\", \"effect\": {\"status\": 429, \"retry_after\": 3}}");
        addRule("{\"route\": \"introspect\", \"effect\": {\"status\": 503}}");
        addRule("{\"route\": \"callbacks\", \"effect\": {\"status\": 503, \"retry_after\": 4}}");
        addRule("{\"route\": \"authorize\", \"effect\": {\"status\": 503, \"retry_after\": 5}}");
        TokenPair tokens = f.issue();

        TestHttp.Response revoke = OAuthFlows.revoke(server, f, tokens.refreshToken());
        assertOAuthError(revoke, 429, "slow_down");
        assertEquals("3", revoke.header("Retry-After"));

        TestHttp.Response introspect = server.http.postJson("/auth/oauth/introspect", json(Map.of("token", tokens.accessToken())), OPERATOR);
        assertOAuthError(introspect, 503, "temporarily_unavailable");

        TestHttp.Response callbacks = server.http.get("/events/account/" + f.account().accountId() + "/events/callbacks", f.bearer(tokens.accessToken()));
        assertEquals(503, callbacks.status(), callbacks.body());
        assertEquals("unavailable", callbacks.json().get("error").asText());
        assertEquals("4", callbacks.header("Retry-After"));

        TestHttp.Response page = server.http.get(OAuthFlows.authorizeUrl(f, Map.of("state", "s")));
        assertEquals(503, page.status());
        assertEquals("5", page.header("Retry-After"));
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertTrue(page.body().contains("A sandbox fault rule"), page.body());

        assertEquals(200, OAuthFlows.revoke(server, f, tokens.refreshToken()).status(), "each rule took one request");
    }

    @Test
    void invalidGrantRefusesTheRefreshWithoutUsingTheRefreshToken() {
        addRule("{\"route\": \"token\", \"grant_type\": \"refresh_token\", \"effect\": {\"error\": \"invalid_grant\"}}");
        String refreshToken = f.issue().refreshToken();
        TestHttp.Response refused = refresh(refreshToken);
        assertOAuthError(refused, 400, "invalid_grant");
        assertTrue(refused.json().get("error_description").asText().contains("sandbox fault rule"), refused.body());
        TestHttp.Response again = refresh(refreshToken);
        assertEquals(200, again.status(), "the refresh token is still usable: " + again.body());
    }

    @Test
    void grantTypeMatchingLeavesTheOtherGrantAloneAndTheCodeUnused() {
        addRule("{\"route\": \"token\", \"grant_type\": \"authorization_code\", \"effect\": {\"error\": \"invalid_grant\"}}");
        assertEquals(200, refresh(f.issue().refreshToken()).status(), "a refresh is not an authorization_code grant");
        String code = OAuthFlows.code(server, f);
        assertOAuthError(OAuthFlows.exchange(server, f, code), 400, "invalid_grant");
        TestHttp.Response exchanged = OAuthFlows.exchange(server, f, code);
        assertEquals(200, exchanged.status(), "the code was not consumed by the refused exchange: " + exchanged.body());
    }

    @Test
    void clientIdMatchingAndTimes() {
        Fixtures other = Fixtures.create(server);
        addRule("{\"route\": \"token\", \"client_id\": \"" + other.app().clientId() + "\", \"effect\": {\"status\": 503}, \"times\": 3}");
        assertEquals(200, refresh(f.issue().refreshToken()).status(), "another client's rule does not apply");
        String otherRefresh = other.issue().refreshToken();
        for (int i = 0; i < 3; i++) assertEquals(503, OAuthFlows.refresh(server, other, otherRefresh).status());
        assertEquals(200, OAuthFlows.refresh(server, other, otherRefresh).status());

        // HTTP Basic names the client too (only the id before the colon is read)
        addRule("{\"route\": \"token\", \"client_id\": \"" + other.app().clientId() + "\", \"effect\": {\"status\": 429}}");
        String basic = java.util.Base64.getEncoder().encodeToString((other.app().clientId() + ":" + other.clientSecret()).getBytes());
        TestHttp.Response viaBasic = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=x",
                "Authorization", "Basic " + basic);
        assertOAuthError(viaBasic, 429, "slow_down");
    }

    @Test
    void latencyDelaysTheAnswerWhichIsOtherwiseNormal() {
        addRule("{\"route\": \"identity\", \"effect\": {\"latency_ms\": 400}}");
        String token = f.issue().accessToken();
        TestHttp.Response r = server.http.get("/auth/api/v1/users/me", f.bearer(token));
        assertEquals(200, r.status(), r.body());
        List<JournalEntry> journal = server.services().journal().newest(f.app().clientId(), 10);
        assertEquals(200, journal.getFirst().status());
        assertTrue(journal.getFirst().durationMs() >= 400, "the journal saw the delay: " + journal.getFirst());
        assertEquals(0, server.services().faults().list().getFirst().remaining());
    }

    @Test
    void clearRemovesEveryRule() {
        addRule("{\"route\": \"token\", \"effect\": {\"status\": 503}, \"times\": 50}");
        addRule("{\"route\": \"identity\", \"effect\": {\"status\": 503}}");
        TestHttp.Response cleared = server.http.delete("/sandbox/v1/faults", OPERATOR);
        assertEquals(200, cleared.status(), cleared.body());
        assertEquals(2, cleared.json().get("cleared").asInt());
        assertEquals(0, server.http.get("/sandbox/v1/faults", OPERATOR).json().get("faults").size());
        assertEquals(200, refresh(f.issue().refreshToken()).status());
    }

    @Test
    void badRulesAre422NamingEachField() {
        Map<String, String> cases = Map.of(
                "{\"effect\": {\"status\": 503}}", "route",
                "{\"route\": \"tokens\", \"effect\": {\"status\": 503}}", "route",
                "{\"route\": \"token\", \"effect\": {\"status\": 500}}", "effect.status",
                "{\"route\": \"token\", \"effect\": {}}", "effect",
                "{\"route\": \"token\", \"effect\": {\"status\": 503, \"latency_ms\": 5}}", "effect",
                "{\"route\": \"identity\", \"effect\": {\"error\": \"invalid_grant\"}}", "effect.error",
                "{\"route\": \"identity\", \"grant_type\": \"refresh_token\", \"effect\": {\"status\": 429}}", "grant_type",
                "{\"route\": \"token\", \"effect\": {\"status\": 503}, \"times\": 0}", "times",
                "{\"route\": \"token\", \"effect\": {\"latency_ms\": \"slow\"}}", "effect.latency_ms",
                "{\"route\": \"token\", \"effect\": {\"status\": 503}, \"color\": \"red\"}", "color");
        cases.forEach((body, field) -> {
            TestHttp.Response r = server.http.postJson("/sandbox/v1/faults", body, OPERATOR);
            assertEquals(422, r.status(), body + " -> " + r.body());
            List<String> fields = new ArrayList<>();
            r.json().get("details").get(0).get("fieldViolations").forEach(v -> fields.add(v.get("field").asText()));
            assertTrue(fields.contains(field), body + " names " + field + ": " + r.body());
        });
        assertEquals(400, server.http.postJson("/sandbox/v1/faults", "[1]", OPERATOR).status());
        assertEquals(0, server.services().faults().list().size(), "nothing was stored");
    }

    @Test
    void theControlsNeedTheOperatorKey() {
        assertEquals(401, server.http.get("/sandbox/v1/faults").status());
        assertEquals(401, server.http.get("/sandbox/v1/requests", "Authorization", "Bearer wrong").status());
        TestHttp.Response r = server.http.postJson("/sandbox/v1/faults", "{\"route\": \"token\", \"effect\": {\"status\": 503}}",
                f.bearer(f.issue().accessToken()));
        assertEquals(401, r.status(), "an application's token is not the operator key");
        assertEquals(0, server.services().faults().list().size());
    }

    @Test
    void twoProcessesNeverTakeTheSameMatchTwice() throws Exception {
        FaultRule rule = server.services().faults().add(new FaultRule.Draft("identity", null, null, 503, null, null, null, 7));
        // A second process over the same database: its own services, its own cache.
        Services second = Services.create(server.services().settings(), Clock.systemUTC(),
                dev.ledgerlink.LedgerlinkServer.openDatabase(server.services().settings(), null),
                new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT));
        try (ExecutorService pool = Executors.newFixedThreadPool(8); Faults secondFaults = second.faults().start()) {
            List<Callable<Boolean>> tries = new ArrayList<>();
            Faults.Request anyone = new Faults.Request() {
                @Override public String clientId() { return null; }
                @Override public String grantType() { return null; }
            };
            for (int i = 0; i < 40; i++) {
                Faults faults = i % 2 == 0 ? server.services().faults() : secondFaults;
                tries.add(() -> faults.take(FaultRoute.IDENTITY, anyone).isPresent());
            }
            int taken = 0;
            for (Future<Boolean> t : pool.invokeAll(tries)) if (t.get()) taken++;
            assertEquals(7, taken, "exactly the rule's times, across both processes");
        } finally {
            second.database().close();
        }
        assertEquals(0, server.services().faults().list().stream().filter(r -> r.id() == rule.id()).findFirst().orElseThrow().remaining());
    }

    @Test
    void outsideDevelopmentModeTheSandboxRoutesDoNotExist() {
        try (TestServer prod = TestServer.start(b -> b.set(Setting.DEV, "false").set(Setting.OPERATOR_KEY, OPERATOR_KEY))) {
            for (String[] call : List.of(new String[] {"GET", "/sandbox/v1/faults"}, new String[] {"DELETE", "/sandbox/v1/faults"},
                    new String[] {"GET", "/sandbox/v1/requests"})) {
                TestHttp.Response r = call[0].equals("GET") ? prod.http.get(call[1], OPERATOR) : prod.http.delete(call[1], OPERATOR);
                assertEquals(404, r.status(), call[0] + " " + call[1] + ": " + r.body());
            }
            TestHttp.Response post = prod.http.postJson("/sandbox/v1/faults", "{\"route\": \"token\", \"effect\": {\"status\": 503}}", OPERATOR);
            assertEquals(404, post.status());
            // a rule in the database (written by a CLI, say) does nothing outside development mode
            prod.services().faults().add(new FaultRule.Draft("token", null, null, 503, null, null, null, 5));
            Fixtures g = Fixtures.create(prod, "https://app.example.com/callback");
            TestHttp.Response refreshed = OAuthFlows.refresh(prod, g, g.issue().refreshToken());
            assertEquals(200, refreshed.status(), refreshed.body());
            prod.services().journal().flush();
            assertTrue(prod.services().journal().newest(null, 10).isEmpty(), "nothing is journaled outside development mode");
        }
    }
}
