package dev.ledgerlink.store;

import dev.ledgerlink.testing.PostgresOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * issue 43 item 1: the two PostgreSQL users of docs/operations.md "Database users", made with
 * deploy/postgres/grants.sql as it is: the migrating user applies the migrations, the serving user
 * (DML only) cannot, and serves normally: callbacks registered and verified, events published and
 * delivered signed, refresh grants, the retention sweep. PostgreSQL pass only (testing/PostgresOnly).
 */
@PostgresOnly
class DatabaseUsersTest {
    private static final Path GRANTS = Path.of("..", "deploy", "postgres", "grants.sql");

    @Test
    void theMigratingUserMigratesAndTheServingUserServesWithoutAnyRightToChangeTheSchema() throws Exception {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        String database = "ledgerlink_users_" + suffix;
        String migrator = "ll_migrate_" + suffix;
        String app = "ll_app_" + suffix;
        try (Connection admin = DriverManager.getConnection(TestDatabases.PG_URL, TestDatabases.PG_USER, "");
             Statement st = admin.createStatement()) {
            st.execute("create role " + migrator + " login");
            st.execute("create role " + app + " login");
            st.execute("create database " + database + " owner " + migrator);
        }
        String url = onDatabase(TestDatabases.PG_URL, database);
        try {
            try (Connection admin = DriverManager.getConnection(url, TestDatabases.PG_USER, "");
                 Statement st = admin.createStatement()) {
                st.execute(Files.readString(GRANTS).replace("ledgerlink_migrate", migrator).replace("ledgerlink_app", app));
            }
            TestDatabases.TestDb asMigrator = new TestDatabases.TestDb(url, migrator, "");
            TestDatabases.TestDb asApp = new TestDatabases.TestDb(url, app, "");
            Cli migrating = new Cli(asMigrator);
            Cli serving = new Cli(asApp);
            assertEquals(0, migrating.run("db", "migrate", "--target", SchemaStepTest.PREVIOUS_RELEASE_SCHEMA).exitCode());

            Cli.Result refused = serving.run("db", "migrate");
            assertNotEquals(0, refused.exitCode(), "the serving user must not be able to change the schema");
            assertTrue(refused.err().contains("permission denied") || refused.err().contains("must be owner"), refused.err());
            assertEquals("behind", serving.run("db", "status", "--json").json().get("state").asText(), "the serving user reads the history");

            Cli.Result migrated = migrating.run("db", "migrate", "--json");
            assertEquals(0, migrated.exitCode(), migrated.err());
            assertEquals("current", migrated.json().get("state").asText());

            // Both ways a node may be told to treat the schema: never (the deploy examples), and the default with nothing pending.
            for (String mode : new String[] {"never", "at-start"}) {
                try (Receiver receiver = new Receiver();
                     TestServer server = TestServer.start(asApp, s -> s.set(Setting.DB_MIGRATE, mode).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"))) {
                    Fixtures f = Fixtures.create(server);
                    Fixtures.Verified callback = f.verified("invoice", receiver);
                    f.publish("invoice.create", 7);
                    Receiver.Request delivered = receiver.next("invoice.create");
                    assertTrue(ServiceSignature.verify(callback.code(), delivered.body(), delivered.signature()), "signed with the callback's code");

                    var tokens = f.issue();
                    TestHttp.Response refreshed = OAuthFlows.refresh(server, f, tokens.refreshToken());
                    assertEquals(200, refreshed.status(), refreshed.body());
                    assertEquals(200, OAuthFlows.refresh(server, f, refreshed.json().get("refresh_token").asText()).status());
                    assertEquals(200, server.http.get("/readyz").status());
                }
            }
            Cli.Result janitor = serving.run("janitor", "--json");
            assertEquals(0, janitor.exitCode(), janitor.out() + janitor.err());
        } finally {
            try (Connection admin = DriverManager.getConnection(TestDatabases.PG_URL, TestDatabases.PG_USER, "");
                 Statement st = admin.createStatement()) {
                st.execute("drop database if exists " + database + " with (force)");
                st.execute("drop role if exists " + app);
                st.execute("drop role if exists " + migrator);
            } catch (SQLException e) {
                System.err.println("could not drop the test's database and roles: " + e.getMessage());
            }
        }
    }

    /** {@code url} naming database {@code name} instead of its own (host, port and parameters kept). */
    static String onDatabase(String url, String name) {
        int query = url.indexOf('?');
        String params = query < 0 ? "" : url.substring(query);
        String base = query < 0 ? url : url.substring(0, query);
        int path = base.indexOf('/', base.indexOf("//") + 2);
        return base.substring(0, path) + "/" + name + params;
    }
}
