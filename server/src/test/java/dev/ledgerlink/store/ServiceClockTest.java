package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one service clock: every process of a sandbox reads the same offset; a production server never does. */
class ServiceClockTest {
    @TempDir
    Path dir;

    @Test
    void aDevelopmentServerAndTheCliReadOneSandboxClock() {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        try (TestServer server = TestServer.start(db, b -> b.set(Setting.SECRETS_KEY, key))) {
            ServiceClock serverClock = server.services().clock();
            serverClock.storeSandboxOffset(Duration.ofHours(13));
            assertEquals(Duration.ofHours(13), serverClock.sandboxOffset());
            assertTrue(!serverClock.instant().isBefore(server.clock.instant().plus(Duration.ofHours(13))), "the offset is applied at once where it was written");

            Services cli = cliServices(db, key);
            try {
                assertEquals(Duration.ofHours(13), cli.clock().sandboxOffset(), "another process reads it at start");
                serverClock.storeSandboxOffset(Duration.ZERO);
                Eventually.await("the CLI's clock follows the move back to real time",
                        () -> cli.clock().sandboxOffset().isZero());
            } finally {
                cli.database().close();
            }
        }
    }

    /**
     * A move is seen at once by the process that made it, even while another thread re-reads the
     * offset (the poller every 250 ms, or a read of the clock): a read that began before the move
     * must not put the old offset back after it. A container run of the sandbox API once saw an access
     * token accepted right after a 12-hour move, for up to a poll's length.
     */
    @Test
    void aMoveIsSeenAtOnceWhileAnotherThreadReReadsTheOffset() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        try (TestServer server = TestServer.start(db, b -> b.set(Setting.SECRETS_KEY, SecretBox.newKeyBase64()))) {
            ServiceClock clock = server.services().clock();
            clock.storeSandboxOffset(Duration.ZERO);
            var stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread rereads = Thread.ofPlatform().start(() -> {
                while (!stop.get()) clock.readSandbox();
            });
            try {
                for (int i = 1; i <= 100; i++) {
                    clock.addToSandboxOffset(Duration.ofSeconds(1));
                    assertEquals(Duration.ofSeconds(i), clock.sandboxOffset(), "right after move " + i);
                }
            } finally {
                stop.set(true);
                rereads.join();
                clock.storeSandboxOffset(Duration.ZERO);
            }
        }
    }

    @Test
    void aProductionServerNeverReadsTheSandboxOffsetAndUnmarksTheDatabase() {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        try (TestServer dev = TestServer.start(db, b -> b.set(Setting.SECRETS_KEY, key))) {
            dev.services().clock().storeSandboxOffset(Duration.ofDays(3));
        }
        try (TestServer production = TestServer.start(db, b -> b.set(Setting.SECRETS_KEY, key).set(Setting.DEV, "false"))) {
            ServiceClock clock = production.services().clock();
            assertTrue(clock.sandboxOffset().isZero());
            assertFalse(clock.sandboxed());
            assertFalse(clock.stored().development(), "a production start clears the development mark");
            assertTrue(clock.instant().isBefore(production.clock.instant().plus(Duration.ofHours(1))), "real time: " + clock.instant());
            Services cli = cliServices(db, key);
            try {
                assertTrue(cli.clock().sandboxOffset().isZero(), "the CLI follows the sandbox only on a database a development server marked");
            } finally {
                cli.database().close();
            }
        }
    }

    private static Services cliServices(TestDatabases.TestDb db, String key) {
        Settings settings = Settings.builder().set(Setting.DB_URL, db.url()).set(Setting.DB_USER, db.user())
                .set(Setting.DB_POOL_SIZE, "2").set(Setting.SECRETS_KEY, key).build();
        return Services.create(settings, Clock.systemUTC(), LedgerlinkServer.openDatabase(settings, null),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
}
