package dev.ledgerlink.callbacks;

import java.time.Duration;
import java.time.Instant;

/**
 * When a callback is disabled: every attempt to it has failed for delivery.disable-after (default
 * 5 days) with no success in between. callbacks.failing_since holds the first failure of the current
 * run (null after any success). An endpoint that answers 410 Gone (retry.RetryRule) has its callback
 * disabled at once instead. Pure; {@link FailureRuns} applies it.
 */
public record DisablePolicy(Duration window) {

    /** True when a callback failing since {@code failingSince} has failed long enough to be disabled at {@code now}. */
    public boolean shouldDisable(Instant failingSince, Instant now) {
        return failingSince != null && !now.isBefore(failingSince.plus(window));
    }

    /** Callbacks failing since this instant or earlier are to be disabled at {@code now}. */
    public Instant cutoff(Instant now) {
        return now.minus(window);
    }
}
