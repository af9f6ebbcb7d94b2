package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * issue 43 item 1: migrations as a step of their own. `db status` says whether this build can serve
 * the schema; `db migrate` applies what is pending; a node with db.migrate=never waits for the migrate
 * step, not ready and naming what it waits for, and gives up with exit code 4 after db.migrate-wait.
 */
class SchemaStepTest {
    /** The schema of the release before this one (docs/operations.md, "Upgrading"): what an upgrade starts from. */
    static final String PREVIOUS_RELEASE_SCHEMA = "39";

    @Test
    void dbStatusSaysBehindThenCurrentThenNewerAndDbMigrateAppliesWhatIsPending() {
        Cli cli = new Cli(TestDatabases.fresh());
        assertEquals(0, cli.run("db", "migrate", "--target", PREVIOUS_RELEASE_SCHEMA, "--json").exitCode());

        Cli.Result behind = cli.run("db", "status", "--json");
        assertEquals(4, behind.exitCode(), "db status exits 4 when the schema is behind: " + behind.out());
        JsonNode b = behind.json();
        assertEquals("behind", b.get("state").asText());
        assertEquals("V" + PREVIOUS_RELEASE_SCHEMA, b.get("schema").asText());
        assertFalse(b.get("can_serve").asBoolean());
        List<String> pending = names(b.get("pending"));
        assertFalse(pending.isEmpty(), "this release has migrations after V" + PREVIOUS_RELEASE_SCHEMA);
        assertTrue(cli.run("db", "status").out().contains("is behind this build: " + pending.getFirst()), "the human line names them");

        Cli.Result migrate = cli.run("db", "migrate", "--json");
        assertEquals(0, migrate.exitCode(), migrate.err());
        assertEquals(pending.stream().map(n -> n.substring(0, n.indexOf("__"))).toList(), names(migrate.json().get("applied_now")));
        for (String p : pending) assertTrue(migrate.err().contains("migrating " + p.substring(0, p.indexOf("__")) + " of "), migrate.err());
        assertEquals("current", migrate.json().get("state").asText());

        Cli.Result again = cli.run("db", "migrate", "--json");
        assertEquals(List.of(), names(again.json().get("applied_now")), "a second migrate finds nothing to do");

        Cli.Result current = cli.run("db", "status", "--json");
        assertEquals(0, current.exitCode());
        assertEquals("current", current.json().get("state").asText());

        // A later release migrated the database: this build serves it, and says by which migrations it is newer.
        try (Database db = Database.connect(cli.db().url(), cli.db().user(), cli.db().password(), 2, null)) {
            db.jdbi().useHandle(h -> h.execute("""
                    insert into flyway_schema_history (installed_rank, version, description, type, script, checksum, installed_by, execution_time, success)
                    values (999, '999', 'a later release', 'SQL', 'V999__a_later_release.sql', 0, 'test', 1, true)"""));
        }
        Cli.Result newer = cli.run("db", "status", "--json");
        assertEquals(0, newer.exitCode(), newer.out());
        assertEquals("newer", newer.json().get("state").asText());
        assertEquals(List.of("V999__a_later_release"), names(newer.json().get("newer")));
        assertTrue(newer.json().get("can_serve").asBoolean());
        try (TestServer server = TestServer.start(cli.db(), s -> s.set(Setting.DB_MIGRATE, "never"))) {
            assertEquals(200, server.http.get("/readyz").status(), "a node serves a schema newer than its build");
        }
    }

    @Test
    void aNodeThatMustNotMigrateIsNotReadyNamingThePendingMigrationsAndServesOnceTheMigrateStepAppliedThem() throws Exception {
        Cli cli = new Cli(TestDatabases.fresh());
        assertEquals(0, cli.run("db", "migrate", "--target", PREVIOUS_RELEASE_SCHEMA).exitCode());
        List<String> pending = names(cli.run("db", "status", "--json").json().get("pending"));
        int management = freePort();
        CompletableFuture<TestServer> starting = CompletableFuture.supplyAsync(() -> TestServer.start(cli.db(),
                s -> s.set(Setting.DB_MIGRATE, "never").set(Setting.MANAGEMENT_PORT, Integer.toString(management))));
        try (HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + management;
            Eventually.await("/readyz names the migrations the node waits for", () -> {
                var r = get(http, base + "/readyz");
                return r != null && r.statusCode() == 503 && r.body().contains(pending.getLast());
            });
            var ready = TestHttp.JSON.readTree(get(http, base + "/readyz").body());
            assertEquals("not ready", ready.get("status").asText());
            assertTrue(ready.get("starting").asText().startsWith("waiting for migrations to be applied by `ledgerlink db migrate`"), ready.toString());
            for (String p : pending) assertTrue(ready.get("starting").asText().contains(p), ready.toString());
            assertEquals(200, get(http, base + "/healthz").statusCode(), "alive while it waits: liveness must not restart it");
            assertFalse(starting.isDone());

            assertEquals(0, cli.run("db", "migrate").exitCode());
            try (TestServer server = starting.get()) {
                Eventually.await("ready once migrated", () -> get(http, base + "/readyz").statusCode() == 200);
                assertEquals(200, server.http.get("/.well-known/oauth-authorization-server").status());
            }
        } finally {
            starting.thenAccept(TestServer::close);
        }
    }

    @Test
    void aNodeThatMustNotMigrateGivesUpAfterTheWaitWithExitCodeFourNamingThemAsACommandDoesAtOnce() {
        Cli cli = new Cli(TestDatabases.fresh());
        assertEquals(0, cli.run("db", "migrate", "--target", PREVIOUS_RELEASE_SCHEMA).exitCode());
        List<String> pending = names(cli.run("db", "status", "--json").json().get("pending"));
        Cli.Result serve = cli.run("serve", "--port", "0", "--set", "db.migrate=never", "--set", "db.migrate-wait=PT1S");
        assertEquals(4, serve.exitCode(), serve.err());
        for (String p : pending) assertTrue(serve.err().contains(p), serve.err());
        assertTrue(serve.err().contains("ledgerlink db migrate"), serve.err());
        assertEquals("behind", cli.run("db", "status", "--json").json().get("state").asText(), "it applied nothing");
        Cli.Result command = cli.run("apps", "list", "--set", "db.migrate=never");
        assertEquals(4, command.exitCode(), "a command with db.migrate=never on a schema behind it: " + command.err());
        assertTrue(command.err().contains("run `ledgerlink db migrate`"), command.err());
        assertEquals("behind", cli.run("db", "status", "--json").json().get("state").asText(), "nor did the command");
    }

    @Test
    void migratingReportsEachMigrationAsItStarts() {
        TestDatabases.TestDb t = TestDatabases.fresh();
        try (Database db = Database.connect(t.url(), t.user(), t.password(), 2, null)) {
            List<String> steps = new ArrayList<>();
            SchemaStatus before = db.schemaStatus();
            assertEquals(SchemaStatus.State.BEHIND, before.state());
            String last = "V" + before.pending().getLast().version();
            SchemaStatus after = db.migrate(null, steps::add);
            assertEquals(before.pending().stream().map(m -> "migrating V" + m.version() + " of " + last).toList(), steps);
            assertEquals(SchemaStatus.State.CURRENT, after.state());
        }
    }

    private static List<String> names(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    /** A port free at this moment (a management port the test polls before the server has started). */
    static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The answer, or null while the port is not open yet. */
    static HttpResponse<String> get(HttpClient http, String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException notYet) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
