package dev.ledgerlink.callbacks;

import java.time.Duration;
import java.time.Instant;

/**
 * Wrong verification codes per callback: at most {@link #MAX_WRONG_TRIES} within {@link #WINDOW};
 * after that every try (right or wrong) is refused with 429 until the window that began with the
 * first wrong try has passed. Codes have 128 bits or more, so this is defence in depth against
 * guessing, not the only defence. A successful verification clears the count. Pure: the counters
 * live in callbacks.verify_failures and verify_failures_since (V6).
 */
public final class VerifierThrottle {
    public static final int MAX_WRONG_TRIES = 5;
    public static final Duration WINDOW = Duration.ofMinutes(15);

    /** Wrong tries counted in the window that started at {@code since}. */
    public record Count(int failures, Instant since) {
        public static final Count NONE = new Count(0, null);
    }

    private VerifierThrottle() {}

    /** How long the caller must wait before trying again; null when a try is allowed now. */
    public static Duration waitBeforeNextTry(Count count, Instant now) {
        if (count.since() == null || count.failures() < MAX_WRONG_TRIES) return null;
        Instant end = count.since().plus(WINDOW);
        return now.isBefore(end) ? Duration.between(now, end) : null;
    }

    /** The count after one more wrong try at {@code now}: a new window once the old one is over. */
    public static Count afterWrongTry(Count count, Instant now) {
        if (count.since() == null || !now.isBefore(count.since().plus(WINDOW))) return new Count(1, now);
        return new Count(count.failures() + 1, count.since());
    }
}
