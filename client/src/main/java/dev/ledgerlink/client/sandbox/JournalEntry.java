package dev.ledgerlink.client.sandbox;

import java.time.Instant;

/**
 * One call of an application as the sandbox's journal recorded it (docs/sandbox.md, "Journal"): never
 * a secret, token, code or password. {@code error} and {@code errorDescription} are the refusal's, or null.
 */
public record JournalEntry(long id, Instant receivedAt, String clientId, String method, String path, int status, String error,
                           String errorDescription, int durationMs) {}
