package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * The statements of the hot paths: the refresh grant (read, use, insert the successor pair) and
 * bearer verification. A small SQL object on purpose: JDBI builds a handler for every method of an
 * interface each time it is attached, so the hot paths attach this one, once per request.
 * Every token lookup is one probe of the unique index on its hash; every "use once" is a
 * conditional UPDATE whose row count decides.
 */
@RegisterConstructorMapper(RefreshTokenRow.class)
@RegisterConstructorMapper(AccessTokenRow.class)
public interface HotTokenStore {

    @SqlUpdate("""
            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
            values (:tokenHash, :grantId, :userId, :applicationId, :scopes, :now)""")
    void insertRefreshToken(String tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now);

    @SqlUpdate("""
            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
            values (:tokenHash, :grantId, :userId, :applicationId, :scopes, :now, :expiresAt)""")
    void insertAccessToken(String tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now, Instant expiresAt);

    @SqlQuery("""
            select id, grant_id, user_id, application_id, scopes, created_at, used_at, superseded_at, revoked_at
            from oauth_refresh_tokens where token_hash = :tokenHash""")
    Optional<RefreshTokenRow> refreshToken(String tokenHash);

    /** The single-use rule: exactly one caller sees 1 for a given live token, on any node. */
    @SqlUpdate("""
            update oauth_refresh_tokens set used_at = :now
            where id = :id and used_at is null and superseded_at is null and revoked_at is null""")
    int useRefreshToken(long id, Instant now);

    /** The verify path: one probe of the unique hash index. */
    @SqlQuery("""
            select id, grant_id, user_id, application_id, scopes, expires_at, revoked_at
            from oauth_access_tokens where token_hash = :tokenHash""")
    Optional<AccessTokenRow> accessToken(String tokenHash);
}
