package dev.ledgerlink.secrets;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Argon2id for user passwords, at the cost of {@code secrets.argon2-memory-kib} and
 * {@code secrets.argon2-iterations} (default OWASP's: 19 MiB, 2 iterations, 1 lane; lower only in
 * development mode, see {@code config.PasswordHashSettings}). Used only at login, never on the token
 * endpoint. A stored hash is checked at the cost it records. Unknown users are checked against a
 * dummy hash of the configured cost so that a login with an unknown e-mail takes as long as one with
 * a wrong password.
 *
 * <p>Memory: each hash fills its cost in memory for the time it runs, and nothing is kept after the
 * last of a run of hashes ({@link Argon2Blocks} passes the blocks on while others wait; the previous
 * library kept a block of the whole cost for the life of the process). The hashes running at once
 * share {@link #BUDGET_KIB}, a third of the heap: one at OWASP's cost in the launcher's 96 MiB, two in
 * 128 MiB (what that serves: docs/BENCHMARKS.md, "What limits each figure"); more sign-ins wait their
 * turn, in order, instead of exhausting the heap (a burst of logins is a thing an attacker can send,
 * and the rest of the heap holds the server's live set under load). A
 * hash costing more than the whole budget runs alone. A turn is waited for at most
 * {@code secrets.argon2-max-wait}: beyond it the hash is refused ({@link Busy}), so a flood of
 * sign-ins from many addresses, which the per-address login throttle does not stop, sheds what it
 * cannot serve instead of queueing requests without bound.
 */
public final class PasswordHasher {
    static final int BUDGET_KIB = (int) Math.min(Integer.MAX_VALUE, Runtime.getRuntime().maxMemory() / 3 / 1024);
    /** Shared by every hasher of the process: the heap is. Fair: a large hash is not overtaken forever. */
    static final Semaphore MEMORY = new Semaphore(BUDGET_KIB, true);
    /** Hashes refused for want of their turn, since the process started (PasswordHashMetrics). */
    static final AtomicLong REFUSED = new AtomicLong();
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One dummy hash per cost, made at the first login of an unknown user (computing it costs as much
     * as a login, which a server start or a CLI command that checks no password need not pay).
     */
    private static final Map<String, String> DUMMY_HASHES = new ConcurrentHashMap<>();

    private final int memoryKib;
    private final int iterations;
    private final Duration maxWait;

    /** A hash could not have its turn within the wait allowed: nothing was checked; try again after {@code retryAfter}. */
    public static final class Busy extends RuntimeException {
        private final Duration retryAfter;

        Busy(Duration retryAfter) {
            super("too many password hashes are running; none was computed", null, false, false);
            this.retryAfter = retryAfter;
        }

        public Duration retryAfter() {
            return retryAfter;
        }
    }

    public PasswordHasher(int memoryKib, int iterations, Duration maxWait) {
        this.memoryKib = memoryKib;
        this.iterations = iterations;
        this.maxWait = maxWait;
    }

    /** @throws Busy when its turn did not come within the wait allowed */
    public String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return withMemory(memoryKib, maxWait, () -> Argon2idHash.of(password, memoryKib, iterations, salt).phc());
    }

    /** @throws Busy when its turn did not come within the wait allowed */
    public boolean verify(String password, String storedHash) {
        String stored = storedHash != null ? storedHash : dummyHash();
        Argon2idHash parsed = Argon2idHash.parse(stored);
        if (parsed == null) return false;
        boolean ok = withMemory(parsed.memoryKib(), maxWait, () -> parsed.matches(password));
        return ok && storedHash != null;
    }

    /**
     * Made outside the map's lock: a hash may wait for its turn, and a lock held meanwhile would queue
     * every other unknown e-mail's sign-in behind it (and, before JDK 24, pin the carrier thread).
     * Two made at once are both correct; the first stored is kept.
     */
    private String dummyHash() {
        String key = memoryKib + "/" + iterations;
        String dummy = DUMMY_HASHES.get(key);
        if (dummy != null) return dummy;
        String made = hash("dummy password that nobody has");
        dummy = DUMMY_HASHES.putIfAbsent(key, made);
        return dummy != null ? dummy : made;
    }

    /** Memory not taken by running hashes, in KiB (for tests: all of it once they are done). */
    static int freeMemoryKib() {
        return MEMORY.availablePermits();
    }

    private static long saturatedNanos(Duration d) {
        return d.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : d.toNanos();
    }

    /** Runs {@code hashing} holding {@code kib} of the budget (at most all of it), waiting at most {@code maxWait} for it. */
    static <T> T withMemory(int kib, Duration maxWait, Supplier<T> hashing) {
        int permits = Math.min(kib, BUDGET_KIB);
        boolean acquired;
        try {
            acquired = MEMORY.tryAcquire(permits, saturatedNanos(maxWait), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            acquired = false;
        }
        // Told to try again after about as long as this one waited (the queue it met is still
        // draining), within 1 to 30 seconds.
        if (!acquired) {
            REFUSED.incrementAndGet();
            throw new Busy(Duration.ofSeconds(Math.clamp(maxWait.toSeconds(), 1, 30)));
        }
        try {
            return hashing.get();
        } finally {
            MEMORY.release(permits);
            // The last hash of a run of them: keep no blocks (a hash starting meanwhile just allocates its own).
            if (MEMORY.getQueueLength() == 0 && MEMORY.availablePermits() == BUDGET_KIB) Argon2Blocks.SHARED.release();
        }
    }
}
