package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** `ledgerlink tokens issue`: a token response without a browser, a grant like any other, used over real HTTP. */
@LedgerlinkTest
@FrontEnd
class TokensIssueCommandTest {
    static TestServer server;
    Fixtures f;

    private JsonNode issue(String... extra) {
        String[] args = new String[4 + extra.length + 1];
        args[0] = "tokens"; args[1] = "issue"; args[2] = "--app"; args[3] = f.app().clientId();
        System.arraycopy(extra, 0, args, 4, extra.length);
        args[args.length - 1] = "--json";
        Cli.Result r = ServerCli.run(server, args);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        return r.json();
    }

    private String basic() {
        return "Basic " + Base64.getEncoder().encodeToString((f.app().clientId() + ":" + f.clientSecret()).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void printsTheTokenResponseOfACodeExchangeAndTheTokenWorksOnTheApi() {
        JsonNode t = issue("--user", f.user().email());
        assertEquals("Bearer", t.get("token_type").asText());
        assertEquals(43200, t.get("expires_in").asLong());
        assertEquals(String.join(" ", Fixtures.SCOPES), t.get("scope").asText(), "the application's scopes by default");
        assertTrue(t.get("created_at").asLong() > 0);
        assertTrue(t.get("refresh_token").asText().length() >= 43);

        var me = server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + t.get("access_token").asText());
        assertEquals(200, me.status(), me.body());
        assertEquals(f.user().id(), me.json().get("response").get("id").asLong());
    }

    @Test
    void userByIdAndRequestedScopesOnly() {
        JsonNode t = issue("--user", Long.toString(f.user().id()), "--scope", "user:profile:read");
        assertEquals("user:profile:read", t.get("scope").asText());
    }

    @Test
    void theGrantIsRecordedWithConsentAndTheRefreshTokenRefreshes() {
        JsonNode t = issue("--user", f.user().email(), "--scope", "user:invoices:read");
        String consented = server.services().database().jdbi().withHandle(h -> h.createQuery(
                        "select scope from oauth_consent_scopes where user_id = :u and application_id = :a")
                .bind("u", f.user().id()).bind("a", f.app().id()).mapTo(String.class).one());
        assertEquals("user:invoices:read", consented);

        var refreshed = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=" + t.get("refresh_token").asText(),
                "Authorization", basic());
        assertEquals(200, refreshed.status(), refreshed.body());
        assertEquals("user:invoices:read", refreshed.json().get("scope").asText());
    }

    @Test
    void aNewIssueSupersedesTheOlderRefreshTokenOfThePair() {
        JsonNode first = issue("--user", f.user().email());
        issue("--user", f.user().email());
        assertEquals(1, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
        var r = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=" + first.get("refresh_token").asText(),
                "Authorization", basic());
        assertEquals(400, r.status(), r.body());
        assertEquals("invalid_grant", r.json().get("error").asText());
    }

    @Test
    void aScopeOutsideTheApplicationsIsRefusedNamingIt() {
        Cli.Result r = ServerCli.run(server, "tokens", "issue", "--user", f.user().email(), "--app", f.app().clientId(), "--scope", "user:payments:read");
        assertEquals(Output.EXIT_INVALID, r.exitCode());
        assertTrue(r.err().contains("user:payments:read"), r.err());
        assertEquals(0, server.services().tokens().liveRefreshTokens(f.user().id(), f.app().id()));
    }

    @Test
    void anUnknownUserOrApplicationIsRefusedNamingIt() {
        Cli.Result noUser = ServerCli.run(server, "tokens", "issue", "--user", "nobody@example.com", "--app", f.app().clientId(), "--json");
        assertEquals(Output.EXIT_INVALID, noUser.exitCode());
        assertEquals(404, noUser.json().get("errno").asInt());
        assertTrue(noUser.json().get("message").asText().contains("nobody@example.com"));
        Cli.Result noApp = ServerCli.run(server, "tokens", "issue", "--user", f.user().email(), "--app", "nosuchclient");
        assertEquals(Output.EXIT_INVALID, noApp.exitCode());
        assertTrue(noApp.err().contains("nosuchclient"), noApp.err());
    }
}
