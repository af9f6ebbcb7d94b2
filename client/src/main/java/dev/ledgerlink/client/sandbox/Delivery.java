package dev.ledgerlink.client.sandbox;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * What was sent to a callback (a verification request or an event's notification), with every
 * attempt, as the delivery history shows it (docs/delivery.md). {@code test}: the options of a test
 * delivery, null for a real one.
 */
public record Delivery(long id, long callbackId, Long eventId, String kind, String name, State state, int attemptCount,
                       Instant nextAttemptAt, String dropReason, Instant createdAt, Instant finishedAt, TestDelivery test,
                       List<Attempt> attempts) {

    public enum State {
        /** Still to be sent (due at {@code nextAttemptAt}). */
        PENDING,
        /** Waiting for its callback's new verification code. */
        HELD,
        DELIVERED,
        /** Given up, with its {@code dropReason}. */
        DROPPED;

        static State of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One attempt, oldest first: the receiver's status (null when there was no answer), how long it
     * took, the error when it failed, and the request and answer as sent and received (headers as
     * "Name: value" lines; a verification code redacted; the answer's first 4 KiB).
     */
    public record Attempt(int attempt, Instant attemptedAt, Integer statusCode, long durationMs, String error, String requestHeaders,
                          String requestBody, String responseHeaders, String responseBody) {}
}
