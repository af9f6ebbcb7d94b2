package dev.ledgerlink.oauth;

/**
 * Which OAuth rows the retention sweeper may remove. Tokens, codes and grants age out after
 * retention.tokens; login sessions as soon as they expire; login failures once they are older than
 * the throttle window (they no longer count). The live refresh token of a (user, application) has
 * used_at, superseded_at and revoked_at all null and its grant is not superseded, so no rule here
 * matches it, whatever its age.
 */
public final class TokenRetention {
    private TokenRetention() {}

    /** On oauth_access_tokens: expired, or revoked, before the cutoff. */
    public static final String DEAD_ACCESS_TOKENS = "expires_at < :cutoff or revoked_at < :cutoff";

    /**
     * On oauth_refresh_tokens: used, superseded (itself, or its grant) or revoked before the cutoff
     * (never the live one). The grant is looked up by its key, as a value: as EXISTS, PostgreSQL
     * hashed every superseded grant for each page of the sweep.
     */
    public static final String DEAD_REFRESH_TOKENS = """
            used_at < :cutoff or superseded_at < :cutoff or revoked_at < :cutoff
            or (select g.superseded_at from oauth_grants g where g.id = oauth_refresh_tokens.grant_id) < :cutoff""";

    /**
     * On oauth_legacy_token_hashes (tokens issued before V22, see TokenFormat): once the token it
     * finds has been removed (and the cutoff has passed since the migration, which every row shares).
     */
    public static final String ORPHANED_LEGACY_HASHES = """
            migrated_at < :cutoff
            and not exists (select 1 from oauth_refresh_tokens r where r.id = oauth_legacy_token_hashes.refresh_token_id)
            and not exists (select 1 from oauth_access_tokens a where a.id = oauth_legacy_token_hashes.access_token_id)""";

    /** On oauth_authorization_codes: expired before the cutoff (a reuse after that is an unknown code). */
    public static final String EXPIRED_CODES = "expires_at < :cutoff";

    /**
     * On oauth_grants: created before the cutoff and left without any token. One probe of each token
     * table's grant index per grant (a value, not NOT EXISTS, which PostgreSQL ran as an anti-join
     * over every access token for each page of the sweep).
     */
    public static final String EMPTY_GRANTS = """
            created_at < :cutoff
            and (select 1 from oauth_refresh_tokens r where r.grant_id = oauth_grants.id limit 1) is null
            and (select 1 from oauth_access_tokens a where a.grant_id = oauth_grants.id limit 1) is null""";

    /** On oauth_login_sessions: expired (the cutoff is now). */
    public static final String EXPIRED_LOGIN_SESSIONS = "expires_at < :cutoff";

    /** On oauth_login_failures: older than the throttle window (the cutoff is now minus the window). */
    public static final String OLD_LOGIN_FAILURES = "failed_at < :cutoff";
}
