package dev.ledgerlink.delivery;

import java.time.Instant;
import java.util.List;

/** One delivery as its history shows it. */
public record DeliveryRecord(long id, long callbackId, Long eventId, String kind, String name, String state, int attemptCount,
                             Instant nextAttemptAt, String dropReason, Instant createdAt, Instant finishedAt, List<Attempt> attempts) {

    public record Attempt(long deliveryId, int attempt, Instant attemptedAt, Integer statusCode, long durationMs,
                          String error, String responseBody) {}

    DeliveryRecord withAttempts(List<Attempt> a) {
        return new DeliveryRecord(id, callbackId, eventId, kind, name, state, attemptCount, nextAttemptAt, dropReason, createdAt, finishedAt, a);
    }
}
