package dev.ledgerlink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupChecksTest {

    private static String refusal(Setting s, String value) {
        Settings settings = Settings.builder().set(s, value).build();
        return assertThrows(ConfigurationException.class, () -> StartupChecks.check(settings)).getMessage();
    }

    @Test
    void theDefaultsPass() {
        StartupChecks.check(Settings.defaults());
    }

    @Test
    void aZeroOrNegativeDurationIsRefusedNamingTheSetting() {
        assertTrue(refusal(Setting.DELIVERY_TIMEOUT, "PT0S").startsWith("delivery.timeout must be longer than zero"));
        assertTrue(refusal(Setting.ACCESS_TOKEN_TTL, "-PT1H").startsWith("oauth.access-token-ttl"));
        assertTrue(refusal(Setting.DELIVERY_RETRY_SCHEDULE, "PT1M,PT0S").startsWith("delivery.retry-schedule"));
        assertTrue(refusal(Setting.DELIVERY_RETRY_SCHEDULE, " , ").startsWith("delivery.retry-schedule"));
        assertTrue(refusal(Setting.LOGIN_MAX_FAILURES, "0").startsWith("login.max-failures"));
        assertTrue(refusal(Setting.DB_POOL_SIZE, "-2").startsWith("db.pool-size"));
        assertTrue(refusal(Setting.DEV, "yes").startsWith("dev must be true or false"));
    }

    @Test
    void aLeaseNotLongerThanTheTimeoutPlusWriteBackIsRefused() {
        Settings s = Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT30S").set(Setting.DELIVERY_LEASE, "PT31S").build();
        String message = assertThrows(ConfigurationException.class, () -> StartupChecks.check(s)).getMessage();
        assertTrue(message.startsWith("delivery.lease (PT31S) must be longer than delivery.timeout (PT30S)"), message);
        StartupChecks.check(Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT30S").set(Setting.DELIVERY_LEASE, "PT32S").build());
    }

    @Test
    void aPerCallbackLimitAboveTheTotalIsRefused() {
        Settings s = Settings.builder().set(Setting.DELIVERY_CONCURRENCY, "8").set(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY, "9").build();
        String message = assertThrows(ConfigurationException.class, () -> StartupChecks.check(s)).getMessage();
        assertTrue(message.startsWith("delivery.per-callback-concurrency (9) must not exceed delivery.concurrency (8)"), message);
    }

    @Test
    void unknownLedgerlinkVariablesAreNamedButTheLaunchersOwnAreNot() {
        Set<String> unknown = StartupChecks.unknownEnvironment(Map.of(
                "LEDGERLINK_DELIVERY_TIMOUT", "PT5S", "LEDGERLINK_DELIVERY_TIMEOUT", "PT5S", "LEDGERLINK_JAVA_OPTS", "-Xmx1g",
                "LEDGERLINK_HOME", "/srv", "LEDGERLINK_CONFIG", "/etc/ll", "PATH", "/bin"));
        assertEquals(Set.of("LEDGERLINK_DELIVERY_TIMOUT"), unknown);
    }

    @Test
    void serveExitsWith3NamingTheSettingBeforeAnyMigrationRuns(@TempDir Path dir) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "serve", "--port", "0",
                "--db", "jdbc:h2:file:" + dir.resolve("db").toAbsolutePath(), "--set", "delivery.lease=PT5S",
                "--set", "secrets.key-file=" + dir.resolve("key"));
        assertEquals(3, code, out + " / " + err);
        assertTrue(err.toString().contains("delivery.lease"), err.toString());
        assertTrue(!Files.exists(dir.resolve("db.mv.db")), "the database was not even opened");
    }
}
