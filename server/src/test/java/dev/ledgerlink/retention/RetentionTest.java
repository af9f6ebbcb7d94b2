package dev.ledgerlink.retention;

import static dev.ledgerlink.testing.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.Metrics;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The retention sweeper and `ledgerlink janitor`, end to end: real server, real HTTP, the real CLI. */
class RetentionTest {
    private static final String[] SHORT_RETENTION = {"--set", "retention.deliveries=PT0S", "--set", "retention.events=PT0S", "--set", "retention.tokens=PT0S"};

    @Test
    void theBackgroundSweeperRemovesWhatAgedOutAndKeepsTheLiveRefreshTokenAndEverythingPending() {
        try (TestServer server = TestServer.start(s -> s.set(Setting.RETENTION_INTERVAL, "PT0.2S")
                .set(Setting.DELIVERY_RETRY_SCHEDULE, "P365D").set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
             Receiver ok = new Receiver(); Receiver failing = new Receiver()) {
            var f = Fixtures.create(server);
            String superseded = f.issue().refreshToken();   // its grant is superseded by the next authorization, its token never used
            JsonNode first = OAuthFlows.exchange(server, f, OAuthFlows.code(server, f)).json();
            JsonNode second = OAuthFlows.refresh(server, f, first.get("refresh_token").asText()).json();
            JsonNode live = OAuthFlows.refresh(server, f, second.get("refresh_token").asText()).json();
            BrowserSession stranger = new BrowserSession(server.baseUrl());
            stranger.get(OAuthFlows.authorizeUrl(f, Map.of()));
            stranger.logIn(f.user().email(), "not the password");

            long delivered = f.verified("invoice", ok).id();
            long pending = f.verified("invoice", failing).id();
            f.verificationsRecorded(delivered);
            f.verificationsRecorded(pending);
            failing.answer(r -> Receiver.Answer.of(500));
            f.publish("invoice.create", 1);
            await("one delivered, one failed once", () -> state(server, delivered).equals("delivered") && attempts(server, pending) == 1);
            assertEquals(4, count(server, "oauth_refresh_tokens"));
            assertTrue(count(server, "oauth_login_failures") > 0);

            server.clock.advance(Duration.ofDays(100));
            await("the sweeper ran over the aged rows", () -> count(server, "oauth_refresh_tokens") == 1 && count(server, "deliveries") == 1);
            await("the pass completed", () -> removed(server, "login_failures") > 0);

            assertEquals(200, OAuthFlows.refresh(server, f, live.get("refresh_token").asText()).status(), "the live refresh token still works");
            var used = OAuthFlows.refresh(server, f, first.get("refresh_token").asText());
            OAuthFlows.assertOAuthError(used, 400, "invalid_grant");
            assertTrue(used.json().get("error_description").asText().contains("unknown"), used.body());
            var ofSupersededGrant = OAuthFlows.refresh(server, f, superseded);
            assertTrue(ofSupersededGrant.json().get("error_description").asText().contains("unknown"), ofSupersededGrant.body());
            assertEquals("pending", state(server, pending), "a pending delivery stays");
            assertEquals(0, server.services().deliveryReads().history(null, delivered, 1, 10).total(), "the delivered one is gone");
            assertEquals(1, count(server, "events"), "the event of the pending delivery stays");
            assertEquals(0, count(server, "oauth_login_sessions"));
            assertEquals(0, count(server, "oauth_login_failures"));
            assertEquals(0, count(server, "oauth_authorization_codes"));
            assertEquals(1, count(server, "oauth_grants"), "the grant of the live token stays");

            assertEquals(3.0, removed(server, "deliveries"), "the delivered notification and both verification requests");
            assertEquals(3.0, removed(server, "delivery_attempts"));
            assertEquals(3.0, removed(server, "refresh_tokens"), "the used ones and the one of the superseded grant");
            assertEquals(4.0, removed(server, "access_tokens"));
            assertEquals(0.0, removed(server, "events"), "the one event is still referenced by the pending delivery");
        }
    }

    @Test
    void janitorDryRunReportsWithoutRemovingThenJanitorRemovesAndReports() {
        var db = TestDatabases.fresh();
        Cli cli = new Cli(db);
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.RETENTION_INTERVAL, "PT0S").set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
             Receiver ok = new Receiver()) {
            var f = Fixtures.create(server);
            JsonNode first = OAuthFlows.exchange(server, f, OAuthFlows.code(server, f)).json();
            JsonNode live = OAuthFlows.refresh(server, f, first.get("refresh_token").asText()).json();
            long delivered = f.verified("client", ok).id();
            f.verificationsRecorded(delivered);
            f.publish("client.create", 7);
            await("delivered", () -> state(server, delivered).equals("delivered"));

            Cli.Result dry = cli.run(with("janitor", "--dry-run", "--json"));
            assertEquals(0, dry.exitCode(), dry.err());
            JsonNode would = dry.json().get("would_remove");
            assertEquals(2, would.get("deliveries").asLong(), "the notification and the verification request: " + dry.out());
            assertEquals(2, would.get("delivery_attempts").asLong(), dry.out());
            assertEquals(1, would.get("refresh_tokens").asLong(), dry.out());
            assertEquals(1, would.get("events").asLong(), "counted as the pass removes it, once its delivery is gone: " + dry.out());
            assertEquals(2, count(server, "oauth_refresh_tokens"), "a dry run removes nothing");
            assertEquals(2, count(server, "deliveries"));
            assertTrue(cli.run(with("janitor", "--dry-run")).out().contains("would remove"));

            Cli.Result run = cli.run(with("janitor", "--json"));
            assertEquals(0, run.exitCode(), run.err());
            JsonNode removed = run.json().get("removed");
            assertEquals(2, removed.get("deliveries").asLong(), run.out());
            assertEquals(2, removed.get("delivery_attempts").asLong(), run.out());
            assertEquals(1, removed.get("events").asLong(), "its event goes in the same pass, once the delivery is gone: " + run.out());
            assertEquals(1, removed.get("refresh_tokens").asLong(), run.out());
            assertEquals(0, count(server, "deliveries"));
            assertEquals(would, removed, "the dry run said what the pass then removed");
            assertEquals(200, OAuthFlows.refresh(server, f, live.get("refresh_token").asText()).status(), "the live refresh token is kept");
        }
    }

    @Test
    void aSecondSweeperWaitsForTheLeaseAndTakesItOverOnceItExpires() {
        var db = TestDatabases.fresh();
        Cli cli = new Cli(db);
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.RETENTION_INTERVAL, "PT0S"))) {
            server.services().database().jdbi().useHandle(h -> h.execute(
                    "update maintenance_leases set holder = 'node-b', expires_at = ? where name = 'retention'",
                    java.time.Instant.now().plus(Duration.ofHours(1))));
            Cli.Result busy = cli.run(with("janitor", "--wait", "PT0.5S"));
            assertEquals(2, busy.exitCode(), busy.out() + busy.err());
            assertTrue(busy.err().contains("another sweeper holds the retention lease (node-b"), busy.err());
            assertEquals(0, cli.run(with("janitor", "--dry-run")).exitCode(), "counting needs no lease");

            server.services().database().jdbi().useHandle(h -> h.execute(
                    "update maintenance_leases set expires_at = ? where name = 'retention'", java.time.Instant.now().minusSeconds(1)));
            Cli.Result taken = cli.run(with("janitor", "--wait", "PT0S"));
            assertEquals(0, taken.exitCode(), "a dead node's lease is taken over: " + taken.err());
            assertNull(server.services().database().jdbi().withHandle(h ->
                    h.createQuery("select holder from maintenance_leases where name = 'retention'").mapTo(String.class).one()), "given back");
        }
    }

    private static String[] with(String... args) {
        String[] all = new String[args.length + SHORT_RETENTION.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(SHORT_RETENTION, 0, all, args.length, SHORT_RETENTION.length);
        return all;
    }

    /** The state of the callback's newest notification (its verification requests left out). */
    private static String state(TestServer server, long callbackId) {
        var notification = notification(server, callbackId);
        return notification == null ? "none" : notification.state().value();
    }

    private static int attempts(TestServer server, long callbackId) {
        var notification = notification(server, callbackId);
        return notification == null ? 0 : notification.attempts().size();
    }

    private static dev.ledgerlink.delivery.DeliveryRecord notification(TestServer server, long callbackId) {
        return server.services().deliveryReads().history(null, callbackId, 1, 10).deliveries().stream()
                .filter(d -> !d.name().equals("callback.verify")).findFirst().orElse(null);
    }

    static long count(TestServer server, String table) {
        Services s = server.services();
        return s.database().jdbi().withHandle(h -> h.createQuery("select count(*) from " + table).mapTo(Long.class).one());
    }

    /** The sweeper's progress as /metrics shows it. */
    private static double removed(TestServer server, String rule) {
        return Metrics.value(server, "ledgerlink_retention_removed_total", "rule", rule).orElse(0);
    }
}
