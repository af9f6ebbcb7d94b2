package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Set;

/**
 * A stored refresh token (never the token itself: only its hash is kept), read with its grant's
 * superseding and each guard's verdict as the database judged it ({@code failing}: the guards of
 * RefreshTokenGrant that do not hold, for the client it was read for).
 */
record RefreshTokenRow(long id, long grantId, long userId, long applicationId, String scopes, Instant createdAt,
                              Instant usedAt, Instant supersededAt, Instant revokedAt, Set<RefreshTokenGrant.Guard> failing) {

    boolean fails(RefreshTokenGrant.Guard guard) {
        return failing.contains(guard);
    }

    /** Every guard holds: the token may be used by the client it was read for. */
    boolean passesEveryGuard() {
        return failing.isEmpty();
    }

    /** Live, whichever client asks: every guard but the client's holds (RefreshTokenGrant.TOKEN_LIVE and GRANT_LIVE). */
    boolean isLive() {
        return failing.stream().allMatch(g -> g == RefreshTokenGrant.Guard.ISSUED_TO_CLIENT);
    }
}
