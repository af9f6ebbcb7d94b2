package dev.ledgerlink.oauth;

import java.time.Instant;

/**
 * A browser session of the authorization page, the account page or the console; {@code userId} is
 * null until the user logs in. An {@code operator} session (console only, signed in with the operator
 * key) has no user. {@code secondFactorUserId} names the user whose password was right and whose
 * second factor is awaited: not signed in yet.
 */
public record LoginSession(long id, Long userId, String csrfToken, Instant authenticatedAt, Instant expiresAt, boolean operator,
                           Long secondFactorUserId) {
    public boolean isAuthenticated() {
        return userId != null;
    }

    public boolean awaitsSecondFactor() {
        return userId == null && secondFactorUserId != null;
    }
}
