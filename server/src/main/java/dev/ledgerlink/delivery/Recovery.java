package dev.ledgerlink.delivery;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.errors.Validation;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The recover rule as pure code: which window a request names, and when each re-queued delivery
 * is tried again. An operator sees the result in each delivery's next_attempt_at.
 *
 * <p>Window: {@code since} (required) and {@code until} (default: now) are ISO-8601 instants with
 * an offset (2026-11-20T08:00:00Z, 2026-11-20T03:00:00-05:00); since must be before until and the
 * window at most {@code maxWindow} long. It selects deliveries by when they were queued
 * (created_at, the time of the event), since included, until excluded.
 *
 * <p>Pacing: the i-th re-queued delivery (0-based, oldest first) falls due at now + i × spacing, so
 * an endpoint that just came back receives a steady trickle rather than the whole backlog at once
 * (the per-callback in-flight cap, delivery.per-callback-concurrency, bounds it further).
 */
public record Recovery(Duration spacing, Duration maxWindow) {

    public record Window(Instant since, Instant until) {}

    public Recovery {
        if (spacing.isNegative()) throw new ConfigurationException("delivery.recover-spacing must not be negative");
        if (maxWindow.isNegative() || maxWindow.isZero()) throw new ConfigurationException("delivery.recover-max-window must be longer than zero");
    }

    /** A 422 naming each field at fault, or the window. */
    public Window window(String since, String until, Instant now) {
        Validation v = new Validation();
        Instant from = instant(since, "since", true, v);
        Instant to = until == null || until.isBlank() ? now : instant(until, "until", false, v);
        if (from != null && to != null) {
            if (!from.isBefore(to)) {
                v.add("since", "must be before until (" + to + ")");
            } else if (Duration.between(from, to).compareTo(maxWindow) > 0) {
                v.add("until", "the window from since to until may be at most " + maxWindow + " long (delivery.recover-max-window)");
            }
        }
        v.throwIfInvalid();
        return new Window(from, to);
    }

    /** When the i-th re-queued delivery falls due. */
    public Instant dueAt(Instant now, int i) {
        return now.plus(spacing.multipliedBy(i));
    }

    private static Instant instant(String text, String field, boolean required, Validation v) {
        if (text == null || text.isBlank()) {
            if (required) v.add(field, "is required: an ISO-8601 instant such as 2026-11-20T08:00:00Z");
            return null;
        }
        return parseInstant(text, field, v);
    }

    private static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /**
     * The one reading of a time in a delivery query (recover, the admin deliveries list): an ISO-8601
     * instant with an offset, between 1970 and 9999 (what both databases store); else a violation.
     */
    public static Instant parseInstant(String text, String field, Validation v) {
        try {
            Instant t = OffsetDateTime.parse(text.trim()).toInstant();
            if (!t.isBefore(EARLIEST) && !t.isAfter(LATEST)) return t;
            v.add(field, "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
        } catch (DateTimeParseException | ArithmeticException e) {
            v.add(field, "must be an ISO-8601 instant with an offset, such as 2026-11-20T08:00:00Z");
        }
        return null;
    }
}
