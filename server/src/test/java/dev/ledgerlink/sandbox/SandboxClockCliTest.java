package dev.ledgerlink.sandbox;

import static dev.ledgerlink.oauth.OAuthFlows.apiStatus;
import static dev.ledgerlink.oauth.OAuthFlows.refresh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** `ledgerlink sandbox clock`: the CLI moves the clock of the server running on the same database. */
@LedgerlinkTest
class SandboxClockCliTest {
    static TestServer server;
    static Fixtures f;

    @AfterEach
    void backToRealTime() {
        assertEquals(0, ServerCli.run(server, "sandbox", "clock", "reset").exitCode());
        Eventually.await("the server is back at real time", () -> server.services().clock().sandboxOffset().isZero());
    }

    @Test
    void advanceMovesTheServersClockTheAccessTokenExpiresTheRefreshTokenRefreshes() {
        TokenPair tokens = f.issue();
        var moved = ServerCli.json(server, "sandbox", "clock", "advance", "PT12H1M", "--json");
        assertEquals("PT12H1M", moved.get("offset").asText());
        Eventually.await("the server reads the moved clock", () -> server.services().clock().sandboxOffset().equals(Duration.ofMinutes(721)));
        assertEquals(401, apiStatus(server, tokens.accessToken()));
        var refreshed = refresh(server, f, tokens.refreshToken());
        assertEquals(200, refreshed.status(), refreshed.body());

        var shown = ServerCli.run(server, "sandbox", "clock");
        assertEquals(0, shown.exitCode(), shown.err());
        assertTrue(shown.out().contains("PT12H1M ahead of real time"), shown.out());
    }

    @Test
    void setAndRefusals() {
        var set = ServerCli.json(server, "sandbox", "clock", "set", "2099-01-01T00:00:00Z", "--json");
        assertTrue(set.get("now").asText().startsWith("2099-01-01T00:00:0"), set.toString());   // and a moment on, as real time went on
        Cli.Result past = ServerCli.run(server, "sandbox", "clock", "set", "2001-01-01T00:00:00Z");
        assertNotEquals(0, past.exitCode());
        assertTrue(past.err().contains("must not be before real time"), past.err());
        Cli.Result backwards = ServerCli.run(server, "sandbox", "clock", "advance", "-PT1H");
        assertNotEquals(0, backwards.exitCode());
        assertTrue(backwards.err().contains("positive"), backwards.err());
    }

    @Test
    void aProductionDatabaseHasNoSandboxClock() {
        try (TestServer production = TestServer.start(b -> b.set(Setting.DEV, "false"))) {
            Cli.Result r = ServerCli.run(production, "sandbox", "clock", "advance", "PT1H");
            assertNotEquals(0, r.exitCode());
            assertTrue(r.err().contains("development mode only"), r.err());
            assertTrue(production.services().clock().sandboxOffset().isZero());
        }
    }
}
