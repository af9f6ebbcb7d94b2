package dev.ledgerlink.oauth;

/**
 * When a refresh token is live, as SQL: the one spelling of the rule that every statement asking
 * it uses (rotations, listings, revoking a pair, the live-token count), so they cannot drift apart.
 * A refresh token is live while it is neither used, superseded (marked on the token itself, before
 * V23) nor revoked, and its grant is not superseded (since V23 a new authorization of the pair
 * supersedes the pair's grant). Statements alias the token table {@code r} and the grant table
 * {@code g}. {@link RefreshTokenRow#isLive()} is the same rule on a row read with its grant.
 * Retention ({@link TokenRetention}) asks the opposite, with an age: dead for long enough.
 */
final class RefreshLiveness {
    /** Refresh token {@code r} is neither used, superseded nor revoked. */
    static final String TOKEN_LIVE = "r.used_at is null and r.superseded_at is null and r.revoked_at is null";

    /** Grant {@code g} is not superseded by a newer authorization of its pair. */
    static final String GRANT_LIVE = "g.superseded_at is null";

    private RefreshLiveness() {}
}
