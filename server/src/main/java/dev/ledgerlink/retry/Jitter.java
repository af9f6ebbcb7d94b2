package dev.ledgerlink.retry;

import java.time.Duration;

/**
 * Spreads retries of many messages that failed together (an endpoint outage) so they do not return
 * as one burst: the delay grows by up to 10 %, never shrinks, so the schedule remains a lower bound.
 */
public final class Jitter {
    private Jitter() {}

    /** {@code random} in [0, 1). */
    public static Duration apply(Duration delay, double random) {
        long nanos = delay.toNanos();
        return Duration.ofNanos(nanos + (long) (nanos * 0.1 * random));
    }
}
