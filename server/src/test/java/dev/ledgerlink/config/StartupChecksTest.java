package dev.ledgerlink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void aZeroRetentionOrSweeperIntervalIsAcceptedForItsDocumentedMeaningButNotANegativeOne() {
        StartupChecks.check(Settings.builder().set(Setting.RETENTION_INTERVAL, "PT0S").set(Setting.RETENTION_DELIVERIES, "PT0S").build());
        assertTrue(refusal(Setting.RETENTION_INTERVAL, "-PT1H").startsWith("retention.interval"));
        assertTrue(refusal(Setting.RETENTION_BATCH_SIZE, "0").startsWith("retention.batch-size"));
    }

    @Test
    void aTracingEndpointMustBeAnHttpAddressAndGetsTheTracesPathOnce() {
        assertTrue(refusal(Setting.TRACING_OTLP_ENDPOINT, "127.0.0.1:4318").startsWith("tracing.otlp-endpoint must be an http or https address"));
        assertTrue(refusal(Setting.TRACING_OTLP_ENDPOINT, "grpc://collector:4317").startsWith("tracing.otlp-endpoint"));
        assertTrue(refusal(Setting.TRACING_OTLP_ENDPOINT, "http://").startsWith("tracing.otlp-endpoint"));
        assertTrue(refusal(Setting.TRACING_EXPORT_INTERVAL, "PT0S").startsWith("tracing.export-interval"));
        for (var given : java.util.Map.of(
                "http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces",
                "https://collector.example:4318/", "https://collector.example:4318/v1/traces",
                "http://gateway/otel", "http://gateway/otel/v1/traces",
                "http://127.0.0.1:4318/v1/traces", "http://127.0.0.1:4318/v1/traces").entrySet()) {
            Settings s = Settings.builder().set(Setting.TRACING_OTLP_ENDPOINT, given.getKey()).build();
            StartupChecks.check(s);
            assertEquals(given.getValue(), TracingSettings.from(s).tracesUri().orElseThrow().toString(), given.getKey());
        }
        assertFalse(TracingSettings.from(Settings.defaults()).on(), "off by default");
    }

    @Test
    void aLeaseNotLongerThanTheTimeoutPlusWriteBackIsRefused() {
        Settings s = Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT30S").set(Setting.DELIVERY_LEASE, "PT31S").build();
        String message = assertThrows(ConfigurationException.class, () -> StartupChecks.check(s)).getMessage();
        assertTrue(message.startsWith("delivery.lease (PT31S) must be longer than delivery.timeout (PT30S)"), message);
        StartupChecks.check(Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT30S").set(Setting.DELIVERY_LEASE, "PT32S").build());
    }

    @Test
    void aStallLimitADatabaseOutageCouldReachIsRefused() {
        Settings s = Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT1S").set(Setting.DELIVERY_LEASE, "PT3S")
                .set(Setting.DELIVERY_STALL_MARGIN, "PT7S").build();
        String message = assertThrows(ConfigurationException.class, () -> StartupChecks.check(s)).getMessage();
        assertTrue(message.startsWith("delivery.stall-margin (PT7S) plus delivery.lease (PT3S) must be longer than 10 s"), message);
        assertTrue(refusal(Setting.DELIVERY_STALL_MARGIN, "PT0S").startsWith("delivery.stall-margin"));
        StartupChecks.check(Settings.builder().set(Setting.DELIVERY_TIMEOUT, "PT1S").set(Setting.DELIVERY_LEASE, "PT3S")
                .set(Setting.DELIVERY_STALL_MARGIN, "PT8S").build());
    }

    @Test
    void aPasswordHashCostBelowOwaspsMinimumIsRefusedOutsideDevelopmentMode() {
        assertTrue(refusal(Setting.PASSWORD_HASH_MEMORY_KIB, "19455").startsWith("secrets.argon2-memory-kib must be at least 19456"));
        assertTrue(refusal(Setting.PASSWORD_HASH_ITERATIONS, "1").startsWith("secrets.argon2-iterations must be at least 2"));
        Settings cheapInDev = Settings.builder().set(Setting.DEV, "true")
                .set(Setting.PASSWORD_HASH_MEMORY_KIB, "64").set(Setting.PASSWORD_HASH_ITERATIONS, "1").build();
        StartupChecks.check(cheapInDev);
        assertEquals(new PasswordHashSettings(64, 1), PasswordHashSettings.from(cheapInDev));
        Settings belowArgon2 = Settings.builder().set(Setting.DEV, "true").set(Setting.PASSWORD_HASH_MEMORY_KIB, "7").build();
        assertTrue(assertThrows(ConfigurationException.class, () -> StartupChecks.check(belowArgon2)).getMessage()
                .startsWith("secrets.argon2-memory-kib must be between 8 and"));
        assertTrue(refusal(Setting.PASSWORD_HASH_MEMORY_KIB, "2097152").startsWith("secrets.argon2-memory-kib must be between"));
        assertEquals(new PasswordHashSettings(19456, 2), PasswordHashSettings.from(Settings.defaults()), "the production default is OWASP's");
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
                "LEDGERLINK_JAVA_OPTS_APPEND", "-XX:+PrintFlagsFinal", "LEDGERLINK_IN_CONTAINER", "true", "LEDGERLINK_HOME", "/srv", "LEDGERLINK_CONFIG", "/etc/ll", "PATH", "/bin"));
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
