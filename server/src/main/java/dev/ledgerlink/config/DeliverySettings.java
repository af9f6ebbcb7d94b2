package dev.ledgerlink.config;

import java.time.Duration;
import java.util.List;

/**
 * The delivery engine's settings, typed and checked together once at start: the rules that tie them
 * to each other live here, so a server never starts with a lease that could expire under a send in
 * flight or a per-callback limit that no total allows.
 */
public record DeliverySettings(List<Duration> retrySchedule, Duration timeout, Duration disableAfter, int concurrency,
                               int perCallbackConcurrency, Duration pollInterval, Duration lease, Duration stallMargin,
                               Integer rateLimit) {

    /** Time a worker is allowed, after an attempt's timeout, to record its outcome before the lease must still hold. */
    public static final Duration WRITE_BACK = Duration.ofSeconds(1);
    /**
     * The longest anything waits for a database connection: store.Database's pool timeout, defined
     * here because the stall margin's rule below depends on it (config may not import store).
     */
    public static final Duration CONNECTION_WAIT = Duration.ofSeconds(10);

    public static DeliverySettings from(Settings s) {
        var d = new DeliverySettings(s.durations(Setting.DELIVERY_RETRY_SCHEDULE), s.duration(Setting.DELIVERY_TIMEOUT),
                s.duration(Setting.DELIVERY_DISABLE_AFTER), s.integer(Setting.DELIVERY_CONCURRENCY),
                s.integer(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY), s.duration(Setting.DELIVERY_POLL_INTERVAL),
                s.duration(Setting.DELIVERY_LEASE), s.duration(Setting.DELIVERY_STALL_MARGIN), rateLimit(s));
        d.check();
        return d;
    }

    /** delivery.rate-limit: null when empty (no limit), else checked by {@link RateLimit}. */
    private static Integer rateLimit(Settings s) {
        try {
            return RateLimit.parse(s.get(Setting.DELIVERY_RATE_LIMIT));
        } catch (IllegalArgumentException e) {
            throw invalid(Setting.DELIVERY_RATE_LIMIT, RateLimit.RULE + " (empty: none), got '"
                    + s.get(Setting.DELIVERY_RATE_LIMIT) + "'");
        }
    }

    private void check() {
        if (retrySchedule.isEmpty()) throw invalid(Setting.DELIVERY_RETRY_SCHEDULE, "must name at least one delay");
        if (concurrency < 1) throw invalid(Setting.DELIVERY_CONCURRENCY, "must be at least 1, got " + concurrency);
        if (perCallbackConcurrency < 1) {
            throw invalid(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY, "must be at least 1, got " + perCallbackConcurrency);
        }
        if (perCallbackConcurrency > concurrency) {
            throw invalid(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY, "(" + perCallbackConcurrency + ") must not exceed "
                    + Setting.DELIVERY_CONCURRENCY.key() + " (" + concurrency + ")");
        }
        if (lease.plus(stallMargin).compareTo(CONNECTION_WAIT) <= 0) {
            throw invalid(Setting.DELIVERY_STALL_MARGIN, "(" + stallMargin + ") plus " + Setting.DELIVERY_LEASE.key() + " (" + lease
                    + ") must be longer than " + CONNECTION_WAIT.toSeconds() + " s, the longest a claim waits for a database connection, "
                    + "or a database outage would count as a stuck dispatcher");
        }
        if (lease.compareTo(timeout.plus(WRITE_BACK)) <= 0) {
            throw invalid(Setting.DELIVERY_LEASE, "(" + lease + ") must be longer than " + Setting.DELIVERY_TIMEOUT.key() + " ("
                    + timeout + ") plus " + WRITE_BACK.toSeconds() + " s to record the outcome, or a send in flight could be taken over");
        }
    }

    private static ConfigurationException invalid(Setting s, String why) {
        return new ConfigurationException(s.key() + " " + why);
    }
}
