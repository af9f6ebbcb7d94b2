package dev.ledgerlink.accounts;

import java.time.Instant;

/** A person who logs in. The password hash never leaves the accounts package. */
public record User(long id, String email, String firstName, String lastName, Instant createdAt) {}
