package dev.ledgerlink.delivery;

import dev.ledgerlink.retry.RetryRule;
import java.time.Instant;
import java.util.List;

/** One delivery as its history shows it; {@code test}: the options of a test delivery of development mode, else null. */
public record DeliveryRecord(long id, long callbackId, Long eventId, DeliveryKind kind, String name, DeliveryState state, int attemptCount,
                             Instant nextAttemptAt, String dropReason, Instant createdAt, Instant finishedAt, List<Attempt> attempts,
                             TestDelivery test) {

    /** Headers are "Name: value" lines; the request body has a verification code redacted; the response body is its first 4 KiB. */
    public record Attempt(long id, long deliveryId, int attempt, Instant attemptedAt, Integer statusCode, long durationMs,
                          String error, String requestHeaders, String requestBody, String responseHeaders, String responseBody) {

        public boolean succeeded() {
            return RetryRule.succeeded(statusCode);
        }
    }

    DeliveryRecord withAttempts(List<Attempt> a) {
        return new DeliveryRecord(id, callbackId, eventId, kind, name, state, attemptCount, nextAttemptAt, dropReason, createdAt, finishedAt, a, test);
    }
}
