package dev.ledgerlink.oauth;

import java.time.Instant;

/**
 * A browser session of the authorization page or the console; {@code userId} is null until the user
 * logs in. An {@code operator} session (console only, signed in with the operator key) has no user.
 */
public record LoginSession(long id, Long userId, String csrfToken, Instant authenticatedAt, Instant expiresAt, boolean operator) {
    public boolean isAuthenticated() {
        return userId != null;
    }
}
