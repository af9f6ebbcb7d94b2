package dev.ledgerlink.store;

import dev.ledgerlink.testing.PostgresOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * issue 43 item 2: start-up that probes can see. A migration held up (here by a lock on the table it
 * alters, as a long migration or a busy table holds it up in production) runs while the management
 * port already answers: /healthz 200, so liveness never kills the pod mid-way, and /readyz 503 naming
 * the migration ("migrating V41 of V43"). PostgreSQL pass only (testing/PostgresOnly): its DDL waits for
 * the lock, which is what holds the migration for as long as the test needs.
 */
@PostgresOnly
class StartupProbesTest {

    @Test
    void theManagementPortAnswersThroughAMigrationNamingItAndTurnsReadyWhenItIsDone() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshPostgres();
        assertEquals(0, new Cli(db).run("db", "migrate", "--target", SchemaStepTest.PREVIOUS_RELEASE_SCHEMA).exitCode());
        int management = SchemaStepTest.freePort();
        AtomicReference<CompletableFuture<TestServer>> starting = new AtomicReference<>();
        try (Connection blocker = DriverManager.getConnection(db.url(), db.user(), db.password());
             HttpClient http = HttpClient.newHttpClient()) {
            blocker.setAutoCommit(false);
            try (Statement st = blocker.createStatement()) {
                // Every table this release's migrations alter: whichever comes first waits here.
                st.execute("lock table callbacks, users, oauth_grants in access exclusive mode");
            }
            starting.set(CompletableFuture.supplyAsync(() -> TestServer.start(db,
                    s -> s.set(Setting.MANAGEMENT_PORT, Integer.toString(management)))));
            String base = "http://127.0.0.1:" + management;
            Eventually.await("/readyz names the migration under way", () -> {
                HttpResponse<String> r = SchemaStepTest.get(http, base + "/readyz");
                return r != null && r.statusCode() == 503 && r.body().matches(".*migrating V\\d+ of V\\d+.*");
            });
            JsonNode ready = TestHttp.JSON.readTree(SchemaStepTest.get(http, base + "/readyz").body());
            assertEquals("not ready", ready.get("status").asText());
            assertTrue(ready.get("starting").asText().matches("migrating V\\d+ of V\\d+"), ready.toString());
            HttpResponse<String> alive = SchemaStepTest.get(http, base + "/healthz");
            assertEquals(200, alive.statusCode(), "alive through the migration: a liveness probe must not kill it");
            assertEquals(ready.get("starting").asText(), TestHttp.JSON.readTree(alive.body()).get("starting").asText());
            assertTrue(SchemaStepTest.get(http, base + "/metrics").body().contains("jvm_memory_used_bytes"), "metrics are scraped meanwhile");

            blocker.rollback();   // the lock goes: the migrations run on
            try (TestServer server = starting.get().get()) {
                Eventually.await("ready once migrated", () -> SchemaStepTest.get(http, base + "/readyz").statusCode() == 200);
                assertEquals(200, server.http.get("/.well-known/oauth-authorization-server").status());
            }
        } finally {
            if (starting.get() != null) starting.get().thenAccept(TestServer::close);
        }
    }
}
