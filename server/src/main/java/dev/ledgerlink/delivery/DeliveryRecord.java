package dev.ledgerlink.delivery;

import dev.ledgerlink.retry.RetryRule;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One delivery as its history shows it; {@code test}: what development mode's hooks mark it with (a
 * test delivery's options, docs/sandbox.md "Test deliveries"), else null.
 */
public record DeliveryRecord(long id, long callbackId, Long eventId, DeliveryKind kind, String name, DeliveryState state, int attemptCount,
                             Instant nextAttemptAt, String dropReason, Instant createdAt, Instant finishedAt, List<Attempt> attempts,
                             Map<String, Object> test) {

    /** Headers are "Name: value" lines; the request body has a verification code redacted; the response body is its first 4 KiB. */
    public record Attempt(long id, long deliveryId, int attempt, Instant attemptedAt, Integer statusCode, long durationMs,
                          String error, String requestHeaders, String requestBody, String responseHeaders, String responseBody) {

        public boolean succeeded() {
            return RetryRule.succeeded(statusCode);
        }
    }

    /** Pending behind an earlier delivery of its ordered callback: no attempt is scheduled until that one ends (DeliveryOrder). */
    public boolean waitsForEarlier() {
        return state == DeliveryState.PENDING && DeliveryOrder.PARKED.equals(nextAttemptAt);
    }

    DeliveryRecord withAttempts(List<Attempt> a) {
        return new DeliveryRecord(id, callbackId, eventId, kind, name, state, attemptCount, nextAttemptAt, dropReason, createdAt, finishedAt, a, test);
    }

    DeliveryRecord withTest(Map<String, Object> mark) {
        return new DeliveryRecord(id, callbackId, eventId, kind, name, state, attemptCount, nextAttemptAt, dropReason, createdAt, finishedAt, attempts, mark);
    }
}
