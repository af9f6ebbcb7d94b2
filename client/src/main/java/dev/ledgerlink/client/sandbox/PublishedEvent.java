package dev.ledgerlink.client.sandbox;

import java.time.Instant;

/** An event the sandbox accepted: stored, and fanned out to {@code deliveries} verified callbacks of the account. */
public record PublishedEvent(long id, String name, String accountId, long objectId, long userId, Instant createdAt, int deliveries) {}
