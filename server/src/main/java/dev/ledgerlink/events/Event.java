package dev.ledgerlink.events;

import java.time.Instant;

/** A published event: what happened (name), to which object, in which account, by whom; and how many deliveries it fanned out to. */
public record Event(long id, String name, String accountId, long objectId, long userId, Instant createdAt, int deliveries) {}
