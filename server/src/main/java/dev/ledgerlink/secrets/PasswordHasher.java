package dev.ledgerlink.secrets;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Argon2id for user passwords, at the cost of {@code secrets.argon2-memory-kib} and
 * {@code secrets.argon2-iterations} (default OWASP's: 19 MiB, 2 iterations, 1 lane; lower only in
 * development mode, see {@code config.PasswordHashSettings}). Used only at login, never on the token
 * endpoint. A stored hash is checked at the cost it records. Unknown users are checked against a
 * dummy hash of the configured cost so that a login with an unknown e-mail takes as long as one with
 * a wrong password.
 *
 * <p>Memory: each hash fills its cost in memory for the time it runs, and nothing after (the
 * previous library kept a 19 MiB block per cost for the life of the process, a sixth of the
 * launcher's heap then). The hashes running at once share {@link #BUDGET_KIB}, a third of the heap:
 * one at OWASP's cost in the launcher's 96 MiB (about 60 ms on the development machine: 15 sign-ins
 * a second), two in 128 MiB; more sign-ins wait their turn, in order, instead of exhausting the heap
 * (a burst of logins is a thing an attacker can send; the live set under load is about 40 MiB, and a
 * hash's blocks live long enough to reach the old generation). A hash costing more than the whole
 * budget runs alone.
 */
public final class PasswordHasher {
    static final int BUDGET_KIB = (int) Math.min(Integer.MAX_VALUE, Runtime.getRuntime().maxMemory() / 3 / 1024);
    /** Shared by every hasher of the process: the heap is. Fair: a large hash is not overtaken forever. */
    private static final Semaphore MEMORY = new Semaphore(BUDGET_KIB, true);
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One dummy hash per cost, made at the first login of an unknown user (computing it costs as much
     * as a login, which a server start or a CLI command that checks no password need not pay).
     */
    private static final Map<String, String> DUMMY_HASHES = new ConcurrentHashMap<>();

    private final int memoryKib;
    private final int iterations;

    public PasswordHasher(int memoryKib, int iterations) {
        this.memoryKib = memoryKib;
        this.iterations = iterations;
    }

    public String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return withMemory(memoryKib, () -> Argon2idHash.of(password, memoryKib, iterations, salt).phc());
    }

    public boolean verify(String password, String storedHash) {
        String stored = storedHash != null ? storedHash
                : DUMMY_HASHES.computeIfAbsent(memoryKib + "/" + iterations, k -> hash("dummy password that nobody has"));
        Argon2idHash parsed = Argon2idHash.parse(stored);
        if (parsed == null) return false;
        boolean ok = withMemory(parsed.memoryKib(), () -> parsed.matches(password));
        return ok && storedHash != null;
    }

    /** Memory not taken by running hashes, in KiB (for tests: all of it once they are done). */
    static int freeMemoryKib() {
        return MEMORY.availablePermits();
    }

    private static <T> T withMemory(int kib, Supplier<T> hashing) {
        int permits = Math.min(kib, BUDGET_KIB);
        MEMORY.acquireUninterruptibly(permits);
        try {
            return hashing.get();
        } finally {
            MEMORY.release(permits);
        }
    }
}
