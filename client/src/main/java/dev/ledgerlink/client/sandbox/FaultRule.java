package dev.ledgerlink.client.sandbox;

import java.time.Instant;

/**
 * A fault rule as the sandbox keeps it (docs/sandbox.md, "Faults"): what it matches ({@code route},
 * {@code clientId}, {@code grantType}, null for any), its effect (a {@code status} with
 * {@code retryAfter} seconds, an {@code error}, or a {@code latencyMs}; the others null), how many
 * requests it takes and has {@code remaining}.
 */
public record FaultRule(long id, String route, String clientId, String grantType, Integer status, Integer retryAfter, String error,
                        Integer latencyMs, int times, int remaining, Instant createdAt) {}
