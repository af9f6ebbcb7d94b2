package dev.ledgerlink.junit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The faults and journal examples again, with the sandbox's database on PostgreSQL ({@code setting("db.url", ...)}):
 * a fresh schema of the test server's database (LEDGERLINK_TEST_PG_URL, default 127.0.0.1:5432/test),
 * dropped when the JVM ends.
 */
class SandboxOnPostgresTest {
    @RegisterExtension
    static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("example-seed.yaml")
            .setting("db.url", freshSchema()).setting("db.user", user());

    @Test
    void theAppsRefreshSurvivesATokenEndpointThatAnswers503Twice() {
        TokenRefreshUnderFaultsTest.refreshSurvives503Twice(sandbox, TokenRefreshUnderFaultsTest.clientOf(sandbox));
    }

    @Test
    void aRefusedRefreshUsesNothingAndTheJournalSaysWhy() {
        TokenRefreshUnderFaultsTest.refusedRefreshUsesNothing(sandbox, TokenRefreshUnderFaultsTest.clientOf(sandbox));
    }

    private static String url() {
        return System.getenv().getOrDefault("LEDGERLINK_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    }

    private static String user() {
        return System.getenv().getOrDefault("LEDGERLINK_TEST_PG_USER", "postgres");
    }

    private static String freshSchema() {
        String schema = "sbx_" + Long.toString(System.nanoTime(), 36) + "_" + ProcessHandle.current().pid();
        try (Connection c = DriverManager.getConnection(url(), user(), ""); Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + url() + " does not answer: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url(), user(), ""); Statement st = c.createStatement()) {
                st.execute("drop schema " + schema + " cascade");
            } catch (SQLException e) {
                // a schema left behind holds only this test's rows
            }
        }, "drop-sandbox-schema"));
        return url() + (url().contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }
}
