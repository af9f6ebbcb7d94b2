package dev.ledgerlink.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Argon2id at the configured cost; a stored hash is checked at the cost it records. */
class PasswordHasherTest {
    private static PasswordHasher hasher(int memoryKib, int iterations) {
        return new PasswordHasher(memoryKib, iterations, Duration.ofSeconds(30));
    }

    @Test
    void theDefaultCostIsOwaspsAndTheHashRecordsIt() {
        PasswordHasher owasp = hasher(19 * 1024, 2);
        String hash = owasp.hash("open sesame");
        assertTrue(hash.matches("\\$argon2id\\$v=19\\$m=19456,t=2,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}"), hash);
        assertTrue(owasp.verify("open sesame", hash));
        assertFalse(owasp.verify("open sesame!", hash));
        assertFalse(owasp.verify("open sesame", null), "no stored hash (an unknown user) never matches");
        assertFalse(owasp.verify("open sesame", "not a hash"));
    }

    @Test
    void aHashMadeAtAnotherCostStillVerifiesAfterTheCostChanges() {
        String cheap = hasher(64, 1).hash("open sesame");
        assertTrue(cheap.startsWith("$argon2id$v=19$m=64,t=1,p=1$"), cheap);
        assertTrue(hasher(19 * 1024, 2).verify("open sesame", cheap));
        assertFalse(hasher(19 * 1024, 2).verify("wrong", cheap));
    }

    /**
     * Hashes stored before ledgerlink computed Argon2id with Bouncy Castle were written by password4j
     * 1.8.4 (these two were made by it, for "open sesame"): they still sign their users in.
     */
    @Test
    void hashesWrittenByThePreviousLibraryStillVerify() {
        PasswordHasher hasher = hasher(19 * 1024, 2);
        String owasp = "$argon2id$v=19$m=19456,t=2,p=1$a/txuC9oBboU8YC2LkKY/w$qwDt/jP++2xjUFDnqtbtReb+FYKGyE75lFAW+YTNO9U";
        String cheap = "$argon2id$v=19$m=64,t=1,p=1$7O4JCHB+HZHsGqtKKChNNQ$QBZqo9PnOvVtSC5TYLv0ZlpvJeSD4oJZD3YoeKIsDYQ";
        assertTrue(hasher.verify("open sesame", owasp));
        assertTrue(hasher.verify("open sesame", cheap));
        assertFalse(hasher.verify("open sesamE", owasp));
        assertFalse(hasher.verify("open sesamE", cheap));
    }

    /** The RFC 9106 Argon2id vector has a secret and associated data, which PHC strings cannot carry; this is the reference implementation's (phc-winner-argon2) vector without them. */
    @Test
    void theReferenceImplementationsVectorVerifies() {
        assertTrue(hasher(64, 1).verify("password",
                "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"));
    }

    @Test
    void storedStringsThatAreNotArgon2idVersion19WithSaneParametersNeverMatch() {
        PasswordHasher hasher = hasher(64, 1);
        String good = hasher.hash("pw");
        assertTrue(hasher.verify("pw", good));
        for (String bad : List.of(
                good.replace("$argon2id$", "$argon2i$"),
                good.replace("$v=19$", "$v=16$"),
                good.replace("m=64,", "m=4,"),                    // below 8 KiB per lane
                good.replace("m=64,", "m=999999999,"),            // more digits than any cost
                good.replace("t=1,", "t=0,"),
                good.replace("p=1$", "p=0$"),
                good.substring(0, good.lastIndexOf('$')) + "$!!notbase64!!notbase64!!",
                good + "$extra",
                "", "$argon2id$", "$argon2id$v=19$m=64,t=1,p=1$$")) {
            assertFalse(hasher.verify("pw", bad), bad);
        }
    }

    /** Hashes share a memory budget; every hash gives back what it took, also when it fails. */
    @Test
    void concurrentHashesGiveTheirMemoryBack() throws Exception {
        PasswordHasher owasp = hasher(19 * 1024, 2);
        String hash = owasp.hash("open sesame");
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String attempt = i % 2 == 0 ? "open sesame" : "wrong " + i;
                results.add(pool.submit(() -> owasp.verify(attempt, hash)));
                results.add(pool.submit(() -> owasp.verify(attempt, "garbage")));
            }
            for (int i = 0; i < results.size(); i++) {
                boolean expected = i % 4 == 0;
                assertEquals(expected, results.get(i).get(), "result " + i);
            }
        }
        assertEquals(PasswordHasher.BUDGET_KIB, PasswordHasher.freeMemoryKib());
    }

    /**
     * A hash that cannot have its turn within the wait allowed is refused (Busy) and takes nothing; one
     * whose turn comes within it runs. {@link HashingMemoryHold} stands for hashes already running.
     */
    @Test
    void aHashWhoseTurnDoesNotComeInTimeIsRefusedAndTakesNothing() throws Exception {
        PasswordHasher impatient = new PasswordHasher(64, 1, Duration.ofMillis(100));
        String hash = impatient.hash("open sesame");
        try (var held = HashingMemoryHold.all()) {
            assertEquals(0, PasswordHasher.freeMemoryKib());
            var busy = assertThrows(PasswordHasher.Busy.class, () -> impatient.verify("open sesame", hash));
            assertEquals(Duration.ofSeconds(1), busy.retryAfter(), "told to come back after a second at least");
            assertThrows(PasswordHasher.Busy.class, () -> impatient.hash("another"));
            assertThrows(PasswordHasher.Busy.class, () -> new PasswordHasher(64, 1, Duration.ZERO).verify("open sesame", null));
        }
        assertEquals(PasswordHasher.BUDGET_KIB, PasswordHasher.freeMemoryKib(), "the refused hashes took nothing");
        assertTrue(impatient.verify("open sesame", hash));

        var registry = new SimpleMeterRegistry();
        PasswordHashMetrics.register(registry);
        double refused = registry.get("ledgerlink.password.hashes.refused").functionCounter().count();
        assertTrue(refused >= 3, "the three refusals above are counted: " + refused);
        PasswordHasher patient = new PasswordHasher(64, 1, Duration.ofMinutes(5));
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Boolean> waiting;
            try (var held = HashingMemoryHold.all()) {
                waiting = pool.submit(() -> patient.verify("open sesame", hash));
                HashingMemoryHold.awaitQueued(1);
                assertEquals(1, registry.get("ledgerlink.password.hashes.waiting").gauge().value());
                assertEquals(0, registry.get("ledgerlink.password.hash.memory.free").gauge().value());
            }
            assertTrue(waiting.get(), "its turn came when the running hashes ended");
        }
        assertEquals(PasswordHasher.BUDGET_KIB, PasswordHasher.freeMemoryKib());
        assertEquals(PasswordHasher.BUDGET_KIB * 1024.0, registry.get("ledgerlink.password.hash.memory.free").gauge().value());
        assertEquals(0, registry.get("ledgerlink.password.hashes.waiting").gauge().value());
        assertEquals(refused, registry.get("ledgerlink.password.hashes.refused").functionCounter().count(), "a hash that waited and ran is no refusal");
    }

    /**
     * Argon2's blocks are kept while hashes follow each other (Argon2Blocks): a hash made from reused
     * blocks is the same as one from fresh memory, whatever cost used them before; when the last hash
     * ends with none running or waiting, nothing is kept.
     */
    @Test
    void hashesFromReusedBlocksAreTheSameAndNoneAreKeptAfterTheLast() throws Exception {
        String vector = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
        PasswordHasher hasher = hasher(64, 1);
        String cheap = hasher.hash("open sesame");
        String owasp = hasher(19 * 1024, 2).hash("open sesame");
        assertEquals(0, Argon2Blocks.SHARED.kept(), "a lone hash keeps nothing after it");
        // Room for one 64 MiB hash at a time: the vector's hashes wait for each other and pass their blocks on.
        long reusedBefore = Argon2Blocks.SHARED.reused();
        try (var held = HashingMemoryHold.allBut(64 * 1024); var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Boolean>> run = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String stored = List.of(vector, cheap, owasp).get(i % 3);
                String password = stored.equals(vector) ? "password" : "open sesame";
                run.add(pool.submit(() -> hasher.verify(password, stored)));
            }
            for (Future<Boolean> f : run) assertTrue(f.get(), "from fresh or reused blocks alike");
            assertFalse(hasher.verify("passwore", vector), "from reused blocks too");
            assertTrue(Argon2Blocks.SHARED.reused() - reusedBefore >= 64 * 1024, "later hashes took kept blocks");
        }
        assertTrue(hasher.verify("password", vector), "a lone hash, from kept blocks");
        assertEquals(0, Argon2Blocks.SHARED.kept(), "nothing kept after the last");
    }
}
