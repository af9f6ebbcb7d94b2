package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Grants, the per (user, application) slot, refresh tokens and access tokens. Every token lookup is
 * by the unique index on its hash; every "use once" is a conditional UPDATE whose row count decides.
 */
@RegisterConstructorMapper(RefreshTokenRow.class)
@RegisterConstructorMapper(AccessTokenRow.class)
public interface TokenStore {

    @SqlUpdate("""
            insert into oauth_grants (user_id, application_id, code_id, scopes, created_at)
            values (:userId, :applicationId, :codeId, :scopes, :now)""")
    @GetGeneratedKeys("id")
    long insertGrant(long userId, long applicationId, Long codeId, String scopes, Instant now);

    @SqlQuery("select id from oauth_grants where code_id = :codeId")
    Optional<Long> grantOfCode(long codeId);

    /** Creates the slot of a (user, application) the first time; a concurrent creator just waits and does nothing. */
    @SqlUpdate("""
            insert into oauth_token_slots (user_id, application_id, issued_at) values (:userId, :applicationId, :now)
            on conflict do nothing""")
    void ensureSlot(long userId, long applicationId, Instant now);

    /** Takes the slot's row lock until commit: issues for one (user, application) happen one at a time. */
    @SqlUpdate("update oauth_token_slots set issued_at = :now where user_id = :userId and application_id = :applicationId")
    int lockSlot(long userId, long applicationId, Instant now);

    @SqlUpdate("""
            update oauth_refresh_tokens set superseded_at = :now
            where user_id = :userId and application_id = :applicationId
              and used_at is null and superseded_at is null and revoked_at is null""")
    int supersedeLiveRefreshTokens(long userId, long applicationId, Instant now);

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

    @SqlQuery("""
            select id, grant_id, user_id, application_id, scopes, created_at, used_at, superseded_at, revoked_at
            from oauth_refresh_tokens where id = :id""")
    Optional<RefreshTokenRow> refreshToken(long id);

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

    @SqlUpdate("update oauth_access_tokens set revoked_at = :now where id = :id and revoked_at is null")
    int revokeAccessToken(long id, Instant now);

    @SqlUpdate("update oauth_access_tokens set revoked_at = :now where grant_id = :grantId and revoked_at is null")
    int revokeAccessTokensOfGrant(long grantId, Instant now);

    @SqlUpdate("update oauth_refresh_tokens set revoked_at = :now where grant_id = :grantId and revoked_at is null")
    int revokeRefreshTokensOfGrant(long grantId, Instant now);

    @SqlQuery("""
            select count(*) from oauth_refresh_tokens where user_id = :userId and application_id = :applicationId
              and used_at is null and superseded_at is null and revoked_at is null""")
    int countLiveRefreshTokens(long userId, long applicationId);
}
