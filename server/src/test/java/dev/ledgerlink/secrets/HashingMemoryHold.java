package dev.ledgerlink.secrets;

import java.time.Duration;

/**
 * Stands for password hashes running in this JVM: holds the whole memory budget of
 * {@link PasswordHasher} until closed, so that tests (of the hasher, of the sign-in pages) can see
 * what a sign-in meets when the hashes already running fill it.
 */
public final class HashingMemoryHold implements AutoCloseable {
    private HashingMemoryHold() {}

    /** Takes the whole budget, waiting for hashes running now to end. */
    public static HashingMemoryHold all() {
        PasswordHasher.MEMORY.acquireUninterruptibly(PasswordHasher.BUDGET_KIB);
        return new HashingMemoryHold();
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
        PasswordHasher.MEMORY.release(PasswordHasher.BUDGET_KIB);
    }
}
