package dev.ledgerlink.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for what background work (delivery, sweeping, notifying) makes true, failing after a generous bound. */
public final class Eventually {
    private Eventually() {}

    public static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("gave up waiting until " + what);
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
