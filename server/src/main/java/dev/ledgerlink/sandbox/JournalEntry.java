package dev.ledgerlink.sandbox;

import java.time.Instant;

/**
 * One call of an application, as the journal keeps it: when, which client, the method and path (never
 * the query or the body), the status, the refusal's error and description (OAuth's
 * error/error_description, or the API's error and message), and how long it took. No secret, token,
 * code, verifier or password is ever part of it.
 */
public record JournalEntry(long id, Instant receivedAt, String clientId, String method, String path, int status, String error,
                           String errorDescription, int durationMs) {}
