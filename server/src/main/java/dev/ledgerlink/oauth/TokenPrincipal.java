package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Set;

/** Who an access token speaks for: the user, the application, and the scopes granted. */
public record TokenPrincipal(long userId, long applicationId, Set<String> scopes, Instant expiresAt) {
    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }
}
