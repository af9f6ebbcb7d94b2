package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.delivery.Deliveries;
import dev.ledgerlink.delivery.Publishers;
import dev.ledgerlink.secrets.WrongKey;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Commands;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LogLines;
import dev.ledgerlink.testing.PostgresCluster;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 43 item 5: a backup taken while the server publishes under load, restored into a new data
 * directory (H2: ledgerlink db backup and db restore) or a new database (PostgreSQL: pg_dump and
 * pg_restore, then ledgerlink db mark-restored), as docs/operations.md "Backup and restore" says. On
 * the restored database: every event acknowledged before the backup started is there and delivered or
 * pending; the callback's code still signs and a resent one verifies (the secrets key, which a backup
 * does not hold, is needed: without it the server refuses to start); no id is handed out again; and
 * the server says in its log that it started on a restored database.
 */
@Heavy
class BackupRestoreTest {
    @TempDir
    Path dir;

    @Test
    void aBackupUnderLoadRestoredIntoANewDatabaseHoldsEverythingAcknowledgedBeforeItAndServesOn() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = TestServer.keyOf(db);
        try (Receiver receiver = new Receiver()) {
            TestServer server = TestServer.start(db, s -> s.set(Setting.OPERATOR_KEY, Publishers.OPERATOR_KEY).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
            Fixtures f = Fixtures.create(server);
            Fixtures.Verified callback = f.verified("invoice", receiver);
            Publishers publishers = new Publishers(f.account().accountId(), f.user().id());
            Set<Long> beforeBackup;
            long backupMs;
            long highestDelivery;
            Set<String> messagesSeen;
            Path backup;
            try {
                publishers.publishTo("server", server.baseUrl(), 2);
                awaitMoreAcknowledged(publishers, 150);
                beforeBackup = Set.copyOf(publishers.acknowledged);   // acknowledged before the backup starts
                long started = System.nanoTime();
                backup = backUp(db);
                backupMs = (System.nanoTime() - started) / 1_000_000;
                awaitMoreAcknowledged(publishers, 150);   // published after the backup: lost by the restore, as the docs say
            } finally {
                publishers.close();
                highestDelivery = server.services().database().jdbi().withHandle(h -> h.createQuery("select max(id) from deliveries").mapTo(Long.class).one());
                server.close();
                messagesSeen = receiver.requests.stream().map(r -> r.header("webhook-id")).collect(Collectors.toSet());
            }

            long started = System.nanoTime();
            TestDatabases.TestDb restored = restore(db, backup);
            long restoreMs = (System.nanoTime() - started) / 1_000_000;
            assertThrows(WrongKey.class, () -> TestServer.start(restored, s -> s), "the backup holds no key: another one is refused");

            try (LogLines log = new LogLines();
                 TestServer again = TestServer.start(restored, s -> s.set(Setting.SECRETS_KEY, key).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"))) {
                long firstStartMs = (System.nanoTime() - started) / 1_000_000 - restoreMs;
                assertEquals(1, log.matching(l -> l.message().startsWith("started on a restored database")).size(), log.all().toString());
                var jdbi = again.services().database().jdbi();
                List<Long> present = jdbi.withHandle(h -> h.createQuery("select object_id from events where object_id in (<ids>)")
                        .bindList("ids", List.copyOf(beforeBackup)).mapTo(Long.class).list());
                assertEquals(beforeBackup, Set.copyOf(present), "every event acknowledged before the backup started is in it");
                List<String> states = jdbi.withHandle(h -> h.createQuery("""
                                select distinct d.state from deliveries d join events e on e.id = d.event_id where e.object_id in (<ids>)""")
                        .bindList("ids", List.copyOf(beforeBackup)).mapTo(String.class).list());
                assertTrue(Set.of("delivered", "pending").containsAll(states), "delivered or pending: " + states);
                // Deliveries whose attempt was in flight at the backup come due when their lease ends (the test's clock moves there).
                again.clock.advance(java.time.Duration.ofSeconds(61));
                try {
                    Deliveries.await("every event acknowledged before the backup delivered", () -> received(receiver).containsAll(beforeBackup)
                            && jdbi.withHandle(h -> h.createQuery("select count(*) from deliveries where state = 'pending'").mapTo(Long.class).one()) == 0);
                } catch (AssertionError e) {
                    Set<Long> missing = new java.util.TreeSet<>(beforeBackup);
                    missing.removeAll(received(receiver));
                    throw new AssertionError(e.getMessage() + ": not received " + missing + "; pending " + jdbi.withHandle(h -> h.createQuery(
                            "select id, attempts, next_attempt_at, lease_owner from deliveries where state = 'pending'").mapToMap().list()), e);
                }

                // The code still signs; a new message has an id never handed out before.
                receiver.clear();
                var event = again.services().events().publish(new dev.ledgerlink.events.EventPublisher.Request("invoice.create",
                        f.account().accountId(), 987_654_321L, f.user().id(), null));
                Receiver.Request sent = receiver.next("invoice.create");
                assertTrue(ServiceSignature.verify(callback.code(), sent.body(), sent.signature()), "signed with the callback's code");
                assertFalse(messagesSeen.contains(sent.header("webhook-id")), "a message id handed out before the backup's loss: " + sent.header("webhook-id"));
                assertTrue(Long.parseLong(sent.header("webhook-id").substring(4)) > highestDelivery, "ids continue past every id the lost time gave out");
                assertTrue(event.id() > 0);
                // A resent code verifies on the restored database.
                var principal = f.principal();
                again.services().callbacks().resend(principal, f.account().accountId(), callback.id());
                String fresh = receiver.next("callback.verify").param("verifier");
                assertTrue(again.services().callbacks().verify(principal, f.account().accountId(), callback.id(), fresh).verified());
                System.out.printf("BackupRestoreTest (%s): %d events acknowledged before the backup, all there; backup %d ms, restore %d ms, "
                        + "first start on it %d ms%n", TestDatabases.postgres() ? "PostgreSQL" : "H2", beforeBackup.size(), backupMs, restoreMs, firstStartMs);
            }
        }
    }

    /** H2: ledgerlink db backup while the server runs. PostgreSQL: pg_dump of the database (its schema here), which reads one snapshot. */
    private Path backUp(TestDatabases.TestDb db) throws Exception {
        if (!TestDatabases.postgres()) {
            Path file = dir.resolve("ledgerlink-backup.zip");
            Cli.Result r = new Cli(db).run("db", "backup", "--to", file.toString(), "--json");
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(SecretKeysFingerprint.of(TestServer.keyOf(db)), r.json().get("secrets_key_fingerprint").asText());
            return file;
        }
        Pg pg = Pg.of(db.url());
        Path file = dir.resolve("ledgerlink.dump");
        Commands.run(List.of(PostgresCluster.binaries().resolve("pg_dump").toString(), "-h", pg.host(), "-p", pg.port(), "-U", db.user(),
                "-d", pg.database(), "-n", pg.schema(), "-Fc", "-f", file.toString()));
        return file;
    }

    /** H2: ledgerlink db restore into a new data directory. PostgreSQL: pg_restore into a new database, then ledgerlink db mark-restored. */
    private TestDatabases.TestDb restore(TestDatabases.TestDb db, Path backup) throws Exception {
        if (!TestDatabases.postgres()) {
            TestDatabases.TestDb restored = new TestDatabases.TestDb("jdbc:h2:file:" + dir.resolve("restored").resolve("ledgerlink"), "", "");
            Cli.Result r = new Cli(restored).run("db", "restore", "--from", backup.toString(), "--json");
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.json().get("ids_advanced_by").asLong() >= 1_000_000, r.out());
            return restored;
        }
        Pg pg = Pg.of(db.url());
        String database = "ledgerlink_restored_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(TestDatabases.PG_URL, TestDatabases.PG_USER, ""); Statement st = c.createStatement()) {
            st.execute("create database " + database);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(database)));
        Commands.run(List.of(PostgresCluster.binaries().resolve("pg_restore").toString(), "-h", pg.host(), "-p", pg.port(), "-U", db.user(),
                "-d", database, backup.toString()));
        TestDatabases.TestDb restored = new TestDatabases.TestDb(DatabaseUsersTest.onDatabase(db.url(), database), db.user(), "");
        Cli.Result r = new Cli(restored).run("db", "mark-restored", "--json", "--source", backup.toString());
        assertEquals(0, r.exitCode(), r.err());
        return restored;
    }

    private static void dropQuietly(String database) {
        try (Connection c = DriverManager.getConnection(TestDatabases.PG_URL, TestDatabases.PG_USER, ""); Statement st = c.createStatement()) {
            st.execute("drop database if exists " + database + " with (force)");
        } catch (Exception ignored) {
            // the JVM's own database cleanup is best effort too
        }
    }

    /** Host, port, database and schema of a test database's PostgreSQL URL. */
    private record Pg(String host, String port, String database, String schema) {
        static Pg of(String jdbcUrl) {
            URI u = URI.create(jdbcUrl.substring("jdbc:".length()));
            String schema = List.of(u.getQuery().split("&")).stream().filter(p -> p.startsWith("currentSchema=")).findFirst().orElseThrow().substring(14);
            return new Pg(u.getHost(), Integer.toString(u.getPort() < 0 ? 5432 : u.getPort()), u.getPath().substring(1), schema);
        }
    }

    /** The fingerprint of a base64 key, as ledgerlink prints it. */
    private static final class SecretKeysFingerprint {
        static String of(String key) {
            return dev.ledgerlink.secrets.SecretBox.fromBase64(key).keyId();
        }
    }

    private static Set<Long> received(Receiver receiver) {
        return receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                .map(r -> Long.parseLong(r.param("object_id"))).collect(Collectors.toSet());
    }

    private static void awaitMoreAcknowledged(Publishers publishers, int more) {
        int before = publishers.acknowledged.size();
        Deliveries.await(more + " more events acknowledged (failures so far: " + publishers.failures + ")", () -> publishers.acknowledged.size() >= before + more);
    }
}
