package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * `ledgerlink sandbox faults add|list|clear` and `ledgerlink sandbox requests`, run as a separate
 * process would: on the database, while a development-mode server over it answers real HTTP (it
 * picks up rules the CLI adds within 250 ms).
 */
@LedgerlinkTest
class SandboxCommandTest {
    static TestServer server;
    Fixtures f;

    @BeforeEach
    void noRules() {
        server.services().faults().clear();
    }

    private static Cli.Result cli(String... args) {
        return ServerCli.run(server, args);
    }

    private static JsonNode json(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = "--json";
        Cli.Result r = cli(all);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        return r.json();
    }

    @Test
    void aStatusRuleAddedByTheCliReachesTheServerAndIsListedWithWhatIsLeft() {
        JsonNode added = json("sandbox", "faults", "add", "--route", "identity", "--client-id", f.app().clientId(),
                "--status", "503", "--retry-after", "3", "--times", "2").get("fault");
        assertEquals("identity", added.get("route").asText());
        assertEquals(3, added.get("effect").get("retry_after").asInt());
        String token = f.issue().accessToken();
        Eventually.await("the server sees the CLI's rule", () -> server.http.get("/auth/api/v1/users/me", f.bearer(token)).status() == 503);
        TestHttp.Response second = server.http.get("/auth/api/v1/users/me", f.bearer(token));
        assertEquals(503, second.status());
        assertEquals("3", second.header("Retry-After"));
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(token)).status(), "both of its times taken");

        JsonNode listed = json("sandbox", "faults", "list").get("faults");
        assertEquals(1, listed.size());
        assertEquals(0, listed.get(0).get("remaining").asInt());
        Cli.Result human = cli("sandbox", "faults", "list");
        assertTrue(human.out().contains("identity client " + f.app().clientId() + ": 503, Retry-After 3 s; 0 of 2 left"), human.out());
    }

    @Test
    void anInvalidGrantRuleThenTheJournalSaysWhyTheTokenCallFailed() {
        json("sandbox", "faults", "add", "--route", "token", "--grant-type", "refresh_token", "--error", "invalid_grant", "--times", "2");
        // a probe with a refresh token that does not exist: refused either way, but only the rule's refusal names the rule
        Eventually.await("the server sees the CLI's rule", () -> OAuthFlows.refresh(server, f, "probe").body().contains("sandbox fault rule"));
        String refreshToken = f.issue().refreshToken();
        TestHttp.Response refused = OAuthFlows.refresh(server, f, refreshToken);
        assertEquals(400, refused.status());
        assertEquals(200, OAuthFlows.refresh(server, f, refreshToken).status(), "the refused refresh used nothing");

        // The server writes its journal in batches (every 200 ms): the CLI, another process, sees the last call once written.
        Eventually.await("the server's journal holds the last token call", () ->
                json("sandbox", "requests", "--app", f.app().clientId()).path("requests").path(0).path("status").asInt() == 200);
        JsonNode entries = json("sandbox", "requests", "--app", f.app().clientId()).get("requests");
        assertEquals(200, entries.get(0).get("status").asInt(), "newest first");
        assertEquals("invalid_grant", entries.get(1).get("error").asText());
        assertTrue(entries.get(1).get("error_description").asText().contains("sandbox fault rule"), entries.toString());
        Cli.Result human = cli("sandbox", "requests", "--app", f.app().clientId(), "--limit", "2");
        assertTrue(human.out().contains("POST /auth/oauth/token -> 400") && human.out().contains("invalid_grant: sandbox fault rule"), human.out());
        assertEquals(2, human.out().strip().lines().count(), human.out());
        assertTrue(!human.out().contains(refreshToken));

        assertEquals(1, json("sandbox", "faults", "clear").get("cleared").asInt());
        assertEquals(0, json("sandbox", "faults", "list").get("faults").size());
    }

    @Test
    void badRulesAndUnknownApplicationsAreRefusedWithTheirField() {
        Cli.Result bad = cli("sandbox", "faults", "add", "--route", "identity", "--status", "500");
        assertEquals(Output.EXIT_INVALID, bad.exitCode(), bad.out() + bad.err());
        assertTrue(bad.err().contains("effect.status must be 503 or 429"), bad.err());
        JsonNode body = cli("sandbox", "faults", "add", "--route", "nowhere", "--latency-ms", "5", "--json").json();
        assertEquals("invalid_field", body.get("error").asText());
        Cli.Result unknown = cli("sandbox", "requests", "--app", "noSuchApp123");
        assertEquals(Output.EXIT_INVALID, unknown.exitCode(), unknown.out() + unknown.err());
        assertEquals(0, server.services().faults().list().size());
    }
}
