package dev.ledgerlink.oauth;

import java.time.Instant;

/** A browser session of the authorization page; {@code userId} is null until the user logs in. */
public record LoginSession(long id, Long userId, String csrfToken, Instant authenticatedAt, Instant expiresAt) {
    public boolean isAuthenticated() {
        return userId != null;
    }
}
