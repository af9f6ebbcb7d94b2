package dev.ledgerlink.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 43 item 4: one secrets key per database. Sealed values name the key that sealed them; the
 * database keeps a check value of its key (never the key); a node with another key, or with none where
 * one must be given, refuses to start with exit code 5 and a message naming the fingerprints and what
 * to do; a node never makes a key file for PostgreSQL, nor for an embedded database that holds sealed
 * values already.
 */
class KeysTest {
    @TempDir
    Path dir;

    @Test
    void aSecondNodeWithAnotherKeyRefusesToStartWithExitCodeFiveNamingBothFingerprints() {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = TestServer.keyOf(db);
        String other = SecretBox.newKeyBase64();
        try (TestServer first = TestServer.start(db, s -> s)) {
            Fixtures.create(first).register("invoice", "http://127.0.0.1:9/in");
            Cli.Result second = new Cli(db).run("serve", "--port", "0", "--set", "secrets.key=" + other);
            assertEquals(5, second.exitCode(), second.err());
            String message = second.err();
            assertTrue(message.contains(SecretBox.fromBase64(other).keyId()), message);
            assertTrue(message.contains("this database's key has the fingerprint " + SecretBox.fromBase64(key).keyId()), message);
            assertTrue(message.contains("Give this node the key"), message);
            assertFalse(message.contains(key) || message.contains(other), "never a key in a message");
            assertEquals(200, first.http.get("/readyz").status(), "the first node serves on");
            Cli.Result command = new Cli(db).run("callbacks", "list", "--set", "secrets.key=" + other);
            assertEquals(5, command.exitCode(), "a command with another key is refused as well: " + command.err());
        }
        try (TestServer again = TestServer.start(db, s -> s)) {
            assertEquals(200, again.http.get("/readyz").status(), "the database's own key starts");
        }
    }

    @Test
    void sealedValuesNameTheirKeyAndTheDatabaseKeepsOnlyTheKeysFingerprintAndCheckValue() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        SecretBox box = SecretBox.fromBase64(TestServer.keyOf(db));
        try (TestServer server = TestServer.start(db, s -> s)) {
            long id = Fixtures.create(server).register("invoice", "http://127.0.0.1:9/in").id();
            var jdbi = server.services().database().jdbi();
            assertEquals(box.keyId(), jdbi.withHandle(h -> h.createQuery("select verifier_key from callbacks where id = :id").bind("id", id)
                    .mapTo(String.class).one()));
            Map<String, Object> recorded = jdbi.withHandle(h -> h.createQuery("select key_id, check_value, role from secrets_keys").mapToMap().one());
            assertEquals(box.keyId(), recorded.get("key_id"));
            assertEquals("current", recorded.get("role"));
            assertTrue(box.matches((String) recorded.get("check_value")));
            assertFalse(recorded.values().toString().contains(TestServer.keyOf(db)), "the key itself is nowhere in the database");
            assertNotEquals(TestServer.keyOf(db), recorded.get("check_value"));
        }
    }

    @Test
    void onPostgresqlANodeWithoutAKeyNeverMakesOneAndSaysHowToGetIt() {
        TestDatabases.TestDb db = TestDatabases.freshPostgres();
        Path keyFile = dir.resolve("ledgerlink.key");
        Cli.Result serve = new Cli(db).run("serve", "--port", "0", "--set", "secrets.key-file=" + keyFile);
        assertEquals(5, serve.exitCode(), serve.err());
        assertFalse(Files.exists(keyFile), "no key file made for a shared database");
        assertTrue(serve.err().contains("ledgerlink secrets new-key"), serve.err());
    }

    @Test
    void anEmbeddedDatabaseGetsAKeyFileWhenNewAndNeverOnceItHoldsSealedValues() throws Exception {
        TestDatabases.TestDb db = new TestDatabases.TestDb("jdbc:h2:file:" + dir.resolve("db"), "", "");
        Path keyFile = dir.resolve("ledgerlink.key");
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, "").set(Setting.SECRETS_KEY_FILE, keyFile.toString()))) {
            Fixtures.create(server).register("invoice", "http://127.0.0.1:9/in");
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        String fingerprint = SecretBox.fromBase64(Files.readString(keyFile)).keyId();
        Files.move(keyFile, dir.resolve("kept.key"));   // the key file lost, the database kept

        Cli.Result serve = new Cli(db).run("serve", "--port", "0", "--set", "secrets.key-file=" + keyFile);
        assertEquals(5, serve.exitCode(), serve.err());
        assertFalse(Files.exists(keyFile), "a database holding sealed values gets no new key: it could open none of them");
        assertTrue(serve.err().contains("fingerprint " + fingerprint), serve.err());
    }

    @Test
    void aDatabaseOfThePreviousReleaseIsCheckedOnTheValuesItSealedThenGetsItsRecord() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures.create(server).register("invoice", "http://127.0.0.1:9/in");
            // As the previous release left it: values sealed without a fingerprint, and no record of the key.
            server.services().database().jdbi().useHandle(h -> {
                h.execute("update callbacks set verifier_key = null");
                h.execute("delete from secrets_keys");
            });
        }
        Cli.Result wrong = new Cli(db).run("callbacks", "list", "--set", "secrets.key=" + SecretBox.newKeyBase64());
        assertEquals(5, wrong.exitCode(), wrong.err());
        assertTrue(wrong.err().contains("the values already sealed in callbacks.verifier_sealed do not open with it"), wrong.err());
        try (TestServer server = TestServer.start(db, s -> s)) {
            List<String> recorded = server.services().database().jdbi().withHandle(h -> h.createQuery("select key_id from secrets_keys").mapTo(String.class).list());
            assertEquals(List.of(SecretBox.fromBase64(TestServer.keyOf(db)).keyId()), recorded);
        }
    }

    @Test
    void newKeyPrintsAKeyAndItsFingerprintAndStatusCountsTheValuesPerKey() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        java.io.StringWriter out = new java.io.StringWriter();
        assertEquals(0, dev.ledgerlink.cli.Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true),
                "secrets", "new-key", "--json"));
        var made = new Cli.Result(0, out.toString(), "").json();
        assertEquals(SecretBox.fromBase64(made.get("key").asText()).keyId(), made.get("fingerprint").asText());
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures f = Fixtures.create(server);
            f.register("invoice", "http://127.0.0.1:9/a");
            f.register("invoice", "http://127.0.0.1:9/b");
        }
        String fingerprint = SecretBox.fromBase64(TestServer.keyOf(db)).keyId();
        Cli.Result status = new Cli(db).run("secrets", "status", "--json");
        assertEquals(0, status.exitCode(), status.err());
        assertEquals(fingerprint, status.json().get("database_key").asText());
        assertEquals(fingerprint, status.json().get("configured_key").asText());
        assertTrue(status.json().get("retiring_key").isNull());
        assertEquals(2, status.json().at("/sealed_values/callbacks.verifier_sealed/" + fingerprint).asInt(), status.out());
    }
}
