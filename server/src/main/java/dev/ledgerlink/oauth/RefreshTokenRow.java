package dev.ledgerlink.oauth;

import java.time.Instant;

/** A stored refresh token (never the token itself: only its hash is kept). */
public record RefreshTokenRow(long id, long grantId, long userId, long applicationId, String scopes, Instant createdAt,
                              Instant usedAt, Instant supersededAt, Instant revokedAt) {
    public boolean isLive() {
        return usedAt == null && supersededAt == null && revokedAt == null;
    }
}
