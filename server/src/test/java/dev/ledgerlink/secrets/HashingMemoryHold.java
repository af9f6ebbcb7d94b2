package dev.ledgerlink.secrets;

import java.time.Duration;

/**
 * Stands for password hashes running in this JVM: holds the whole memory budget of
 * {@link PasswordHasher} until closed, so that tests (of the hasher, of the sign-in pages) can see
 * what a sign-in meets when the hashes already running fill it.
 */
public final class HashingMemoryHold implements AutoCloseable {
    private final int kib;

    private HashingMemoryHold(int kib) {
        this.kib = kib;
    }

    /** Takes the whole budget, waiting for hashes running now to end. */
    public static HashingMemoryHold all() {
        return allBut(0);
    }

    /** Takes all of the budget but {@code kib}: room for hashes of that much at a time. */
    public static HashingMemoryHold allBut(int kib) {
        int taken = PasswordHasher.BUDGET_KIB - kib;
        PasswordHasher.MEMORY.acquireUninterruptibly(taken);
        return new HashingMemoryHold(taken);
    }

    /** Waits until {@code n} hashes are waiting for their turn. */
    public static void awaitQueued(int n) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (PasswordHasher.MEMORY.getQueueLength() < n) {
            if (System.nanoTime() > deadline) throw new AssertionError("no " + n + " hashes waiting");
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Override
    public void close() {
        PasswordHasher.MEMORY.release(kib);
    }
}
