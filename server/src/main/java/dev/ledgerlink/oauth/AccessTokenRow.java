package dev.ledgerlink.oauth;

import java.time.Instant;

/** A stored access token (only its hash is kept). */
public record AccessTokenRow(long id, long grantId, long userId, long applicationId, String scopes, Instant expiresAt,
                             Instant revokedAt) {}
