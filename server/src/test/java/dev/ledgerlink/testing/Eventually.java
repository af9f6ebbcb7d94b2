package dev.ledgerlink.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for what background work (delivery, sweeping, notifying) makes true, failing after a generous bound. */
public final class Eventually {
    private Eventually() {}

    public static void await(String what, BooleanSupplier condition) {
        await(what, Duration.ofMinutes(3), condition);
    }

    /** The same with a bound of the caller's (a fault that takes longer than most to get over). */
    public static void await(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("gave up waiting until " + what);
            sleep(Duration.ofMillis(25));
        }
    }

    /** Thread.sleep for load threads, which have no use for the checked exception. */
    public static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
