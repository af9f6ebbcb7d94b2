package dev.ledgerlink.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.SecondFactor;
import dev.ledgerlink.oauth.Totp;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * issue 43 item 4: `secrets rotate-key` on either database. Every sealed value ({@link SealedColumns})
 * is re-sealed with the new key and opens to the same secret; the database's record moves to the new
 * key; a rotation stopped half-way is resumed by running it again, and meanwhile a node must hold both
 * keys; a user's second factor works on after it. The rotation under delivery load with two nodes
 * and a kill -9 is KeyRotationUnderLoadTest's.
 */
class KeyRotationTest {

    @Test
    void everyValueIsResealedWithTheNewKeyOpeningToTheSameSecretAndTheOldKeyIsNoLongerNeeded() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        String oldKey = TestServer.keyOf(db);
        String newKey = SecretBox.newKeyBase64();
        KeyRing old = KeyRing.of(SecretBox.fromBase64(oldKey));
        Map<Long, String> codes;
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures f = Fixtures.create(server);
            for (int i = 0; i < 23; i++) f.register("invoice", "http://127.0.0.1:9/h" + i);
            codes = plainCodes(server.services().database().jdbi(), old);
        }
        Cli cli = new Cli(db);
        Cli.Result rotated = cli.run("secrets", "rotate-key", "--batch-size", "5", "--json",
                "--set", "secrets.key=" + newKey, "--set", "secrets.previous-key=" + oldKey);
        assertEquals(0, rotated.exitCode(), rotated.err());
        assertEquals(23, rotated.json().at("/resealed/callbacks.verifier_sealed").asInt(), rotated.out());
        assertEquals(SecretBox.fromBase64(oldKey).keyId(), rotated.json().get("from").asText());
        assertEquals(5, rotated.err().lines().filter(l -> l.contains("re-sealed")).count(), "five batches of at most five: " + rotated.err());

        KeyRing fresh = KeyRing.of(SecretBox.fromBase64(newKey));
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, newKey))) {
            Jdbi jdbi = server.services().database().jdbi();
            assertEquals(codes, plainCodes(jdbi, fresh), "every value opens with the new key alone, to the same code");
            assertEquals(List.of(fresh.current().keyId()), jdbi.withHandle(h -> h.createQuery("select distinct verifier_key from callbacks").mapTo(String.class).list()));
            assertEquals(List.of(fresh.current().keyId() + " current"), jdbi.withHandle(h ->
                    h.createQuery("select key_id || ' ' || role from secrets_keys").mapTo(String.class).list()));
        }
        assertEquals(5, cli.run("callbacks", "list", "--set", "secrets.key=" + oldKey).exitCode(), "the old key alone is refused now");
    }

    @Test
    void aRotationStoppedHalfWayIsResumedAndMeanwhileANodeMustHoldBothKeys() throws Exception {
        TestDatabases.TestDb db = TestDatabases.fresh();
        String oldKey = TestServer.keyOf(db);
        String newKey = SecretBox.newKeyBase64();
        Map<Long, String> codes;
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures f = Fixtures.create(server);
            for (int i = 0; i < 12; i++) f.register("invoice", "http://127.0.0.1:9/h" + i);
            codes = plainCodes(server.services().database().jdbi(), KeyRing.of(SecretBox.fromBase64(oldKey)));
        }
        KeyRing both = new KeyRing(SecretBox.fromBase64(newKey), SecretBox.fromBase64(oldKey));
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, newKey).set(Setting.SECRETS_PREVIOUS_KEY, oldKey))) {
            Jdbi jdbi = server.services().database().jdbi();
            // Stopped after its first batch, as a crash would stop it.
            class Stop extends RuntimeException {}
            assertThrows(Stop.class, () -> new KeyRotation(jdbi, both, Clock.systemUTC()).run(4, Duration.ZERO, p -> { throw new Stop(); }));
            Map<String, Long> perKey = KeyRotation.census(jdbi).get("callbacks.verifier_sealed");
            assertEquals(Map.of(both.current().keyId(), 4L, both.previous().orElseThrow().keyId(), 8L), perKey);
            assertEquals(codes, plainCodes(jdbi, both), "half-way, every value opens with one of the two keys");

            Cli cli = new Cli(db);
            Cli.Result newOnly = cli.run("callbacks", "list", "--set", "secrets.key=" + newKey);
            assertEquals(5, newOnly.exitCode(), "during a rotation a node must hold the key being replaced too: " + newOnly.err());
            assertTrue(newOnly.err().contains("secrets.previous-key"), newOnly.err());
            assertEquals(5, cli.run("callbacks", "list", "--set", "secrets.key=" + oldKey).exitCode(), "and the new one");

            Cli.Result resumed = cli.run("secrets", "rotate-key", "--json", "--set", "secrets.key=" + newKey, "--set", "secrets.previous-key=" + oldKey);
            assertEquals(0, resumed.exitCode(), resumed.err());
            assertTrue(resumed.json().get("resumed").asBoolean());
            assertEquals(8, resumed.json().at("/resealed/callbacks.verifier_sealed").asInt());
            assertEquals(codes, plainCodes(jdbi, KeyRing.of(SecretBox.fromBase64(newKey))));
        }
    }

    @Test
    void aSecondFactorEnrolledBeforeTheRotationStillAcceptsItsAuthenticatorsCodesAfterIt() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        String oldKey = TestServer.keyOf(db);
        String newKey = SecretBox.newKeyBase64();
        long userId;
        byte[] secret;
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures f = Fixtures.create(server);
            userId = f.user().id();
            var factor = server.services().oauth().secondFactor();
            secret = Totp.fromBase32(factor.begin(f.user()).orElseThrow().secret());
            var confirmed = factor.confirm(userId, Totp.codeAt(secret, realStep()), "127.0.0.1");
            assertFalse(confirmed.recoveryCodes().isEmpty(), "enrolled: " + confirmed.check());
        }
        Cli.Result rotated = new Cli(db).run("secrets", "rotate-key", "--json", "--set", "secrets.key=" + newKey, "--set", "secrets.previous-key=" + oldKey);
        assertEquals(0, rotated.exitCode(), rotated.err());
        assertEquals(1, rotated.json().at("/resealed/user_second_factors.totp_secret_sealed").asInt(), rotated.out());
        try (TestServer server = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, newKey))) {
            String next = Totp.codeAt(secret, realStep() + 1);
            var check = server.services().oauth().secondFactor().verify(userId, next, "127.0.0.1");
            assertTrue(check instanceof SecondFactor.Accepted, "the authenticator's code is accepted with the new key alone: " + check);
        }
    }

    @Test
    void aRotationWithoutTheDatabasesKeyAsThePreviousOneChangesNothing() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        try (TestServer server = TestServer.start(db, s -> s)) {
            Fixtures.create(server).register("invoice", "http://127.0.0.1:9/h");
        }
        Cli.Result r = new Cli(db).run("secrets", "rotate-key", "--set", "secrets.key=" + SecretBox.newKeyBase64());
        assertEquals(5, r.exitCode(), r.err());
        assertTrue(r.err().contains("set secrets.previous-key to that key"), r.err());
        assertEquals(0, new Cli(db).run("callbacks", "list").exitCode(), "the database's key still opens everything");
    }

    @Test
    void everyColumnOfTheSchemaThatHoldsASealedValueIsOneTheRotationWalks() {
        try (TestServer server = TestServer.start(TestDatabases.fresh(), s -> s)) {
            List<String> columns = server.services().database().jdbi().withHandle(h -> h.createQuery("""
                            select lower(table_name) || '.' || lower(column_name) from information_schema.columns
                            where lower(table_schema) = lower(current_schema()) and lower(column_name) like '%sealed'""")
                    .mapTo(String.class).list());
            assertFalse(columns.isEmpty());
            assertEquals(new TreeSet<>(columns), SealedColumns.ALL.stream().map(SealedColumns.SealedColumn::toString).collect(Collectors.toCollection(TreeSet::new)),
                    "a column named *_sealed holds a sealed secret: add its line to secrets/SealedColumns (its key in *_key)");
            for (SealedColumns.SealedColumn c : SealedColumns.ALL) {
                int keyColumns = server.services().database().jdbi().withHandle(h -> h.createQuery("""
                                select count(*) from information_schema.columns
                                where lower(table_schema) = lower(current_schema()) and lower(table_name) = :t and lower(column_name) = :k""")
                        .bind("t", c.table()).bind("k", c.keyColumn()).mapTo(Integer.class).one());
                assertEquals(1, keyColumns, c + " has no key column " + c.keyColumn());
            }
        }
    }

    /** The authenticator's 30-second step now: the second factor reads real time (RFC 6238). */
    private static long realStep() {
        return java.time.Instant.now().getEpochSecond() / Totp.STEP.toSeconds();
    }

    /** Each sealed code of the callbacks, opened with {@code ring}. */
    static Map<Long, String> plainCodes(Jdbi jdbi, KeyRing ring) {
        return jdbi.withHandle(h -> h.createQuery("select id, verifier_sealed, verifier_key from callbacks")
                .map((rs, ctx) -> Map.entry(rs.getLong(1), ring.open(rs.getString(2), rs.getString(3)))).list())
                .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
