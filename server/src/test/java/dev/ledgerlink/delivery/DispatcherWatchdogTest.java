package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.H2Only;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dispatcher stuck in one claim pass is noticed ({@link DispatcherWatchdog}). The stuck pass is a
 * real one: a server process on the H2 file a crash test once left (store/h2-stuck-row.mv.db), whose
 * header says it was closed cleanly, so nothing rebuilds it, and whose pending delivery 306 no UPDATE
 * can take. Runs in the H2 pass only (@H2Only).
 */
@H2Only
@Heavy
class DispatcherWatchdogTest {
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)   // the server's log stays for a failure
    Path dir;

    @Test
    void aClaimPassThatNeverReturnsTurnsHealthzTo503AndIsLoggedOnce() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/dev/ledgerlink/store/h2-stuck-row.mv.db")) {
            Files.copy(in, dir.resolve("stuck.mv.db"));
        }
        var db = new TestDatabases.TestDb("jdbc:h2:file:" + dir.resolve("stuck"), "", "");
        String key = SecretBox.newKeyBase64();
        resealCodes(db.url(), key);
        Path log = dir.resolve("server.log");
        // the watchdog's limit: the lease plus the stall margin, 3 + 8 s
        ServerProcess server = ServerProcess.start(db, key, log,
                "delivery.lease=PT3S", "delivery.stall-margin=PT8S", "delivery.timeout=PT1S", "delivery.poll-interval=PT0.2S");
        try {
            TestHttp http = new TestHttp(server.awaitBaseUrl());
            assertEquals(200, http.get("/healthz").status(), "alive before the limit");
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(90).toNanos();
            TestHttp.Response health;
            do {
                Thread.sleep(1_000);
                health = http.get("/healthz");
            } while (health.status() == 200 && System.nanoTime() < deadline);
            assertEquals(503, health.status(), "the dispatcher never stalled, or nobody noticed: " + Files.readString(log));
            assertTrue(health.body().contains("\"status\":\"stalled\"") && health.body().contains("claim pass"), health.body());
            assertTrue(http.get("/metrics").body().contains("ledgerlink_delivery_dispatcher_stalled 1.0"), "the gauge shows it");
            Thread.sleep(6_000);   // a check or more later: still one error line for the one stuck pass
            String text = Files.readString(log);
            assertEquals(1, text.split("the delivery dispatcher has been in one claim pass", -1).length - 1, text);
        } finally {
            server.kill();
        }
    }

    /**
     * The file's callback codes were sealed with a key nobody kept: a server refuses a key that opens
     * none of them (secrets.KeyCheck). Sealed again with this test's key, on the callbacks table only
     * (the stuck row is a delivery's).
     */
    private static void resealCodes(String url, String key) throws SQLException {
        try (Connection c = DriverManager.getConnection(dev.ledgerlink.store.JdbcUrls.normalize(url), "sa", "");
             PreparedStatement st = c.prepareStatement("update callbacks set verifier_sealed = ?")) {
            st.setString(1, SecretBox.fromBase64(key).seal("a code sealed for this test"));
            st.executeUpdate();
        }
    }
}
