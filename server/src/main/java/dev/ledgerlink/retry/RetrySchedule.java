package dev.ledgerlink.retry;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The waits between attempts: after the n-th failed attempt the delay is the n-th entry of
 * delivery.retry-schedule (default 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h); after the last entry
 * there is none. {@link RetryRule} decides with it what follows an attempt (a delivery's
 * next_attempt_at is the delay plus {@link Jitter}). Pure: no clock, no randomness.
 */
public record RetrySchedule(List<Duration> delays) {
    /** Longest wait a Retry-After header can impose, so a hostile receiver cannot park a message forever. */
    static final Duration MAX_RETRY_AFTER = Duration.ofHours(24);

    public RetrySchedule {
        delays = List.copyOf(delays);
    }

    /** Attempts a message gets in all: the first plus one per schedule entry. */
    public int maxAttempts() {
        return delays.size() + 1;
    }

    /** The wait after {@code failedAttempts} failures (1 = the first attempt failed); empty means drop. */
    public Optional<Duration> delayAfter(int failedAttempts) {
        if (failedAttempts < 1 || failedAttempts > delays.size()) return Optional.empty();
        return Optional.of(delays.get(failedAttempts - 1));
    }

    /**
     * As {@link #delayAfter(int)}, but a receiver's Retry-After (429/503) is honoured: never retry
     * sooner than it asked, capped at 24 hours. It does not grant extra attempts.
     */
    public Optional<Duration> delayAfter(int failedAttempts, Duration retryAfter) {
        Optional<Duration> scheduled = delayAfter(failedAttempts);
        if (scheduled.isEmpty() || retryAfter == null) return scheduled;
        Duration asked = retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
        return Optional.of(asked.compareTo(scheduled.get()) > 0 ? asked : scheduled.get());
    }
}
