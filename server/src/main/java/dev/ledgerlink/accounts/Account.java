package dev.ledgerlink.accounts;

import java.time.Instant;

/** A business. {@code accountId} is the public string id used in API paths; {@code businessId} its integer id. */
public record Account(long businessId, String accountId, String name, String timezone, Instant createdAt) {}
