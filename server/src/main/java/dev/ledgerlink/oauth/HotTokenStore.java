package dev.ledgerlink.oauth;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The statements of the hot paths: the refresh grant (read, use, insert the successor pair) and
 * bearer verification. Written with JDBI's fluent API rather than a SQL object on purpose: attaching
 * a SQL object to a fresh handle looks up its extension factory and builds a handler for every
 * method, which cost more CPU than the statements themselves at thousands of grants per second.
 * The SQL stays in plain sight here. Every token lookup is one probe of the unique index on its
 * hash; every "use once" is a conditional UPDATE whose row count decides.
 */
final class HotTokenStore {
    static final String INSERT_REFRESH_TOKEN = """
            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
            values (:tokenHash, :grantId, :userId, :applicationId, :scopes, :now)""";

    static final String INSERT_ACCESS_TOKEN = """
            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
            values (:tokenHash, :grantId, :userId, :applicationId, :scopes, :now, :expiresAt)""";

    static final String FIND_REFRESH_TOKEN = """
            select id, grant_id, user_id, application_id, scopes, created_at, used_at, superseded_at, revoked_at
            from oauth_refresh_tokens where token_hash = :tokenHash""";

    /** The single-use rule: exactly one caller sees 1 for a given live token, on any node. */
    static final String USE_REFRESH_TOKEN = """
            update oauth_refresh_tokens set used_at = :now
            where id = :id and used_at is null and superseded_at is null and revoked_at is null""";

    /**
     * The whole refresh rotation as one statement, for PostgreSQL (data-modifying CTEs): use the
     * presented token once, with the same conditions as {@link #USE_REFRESH_TOKEN} plus the client's,
     * and insert the successor pair in its grant. One statement is one transaction: all three rows
     * commit together or none does, and exactly one of any number of racing statements finds the
     * row still unused (the others wait on its row lock, then see it used and return no row). No
     * row back means "not rotated"; the caller then reads the token to say why.
     */
    static final String ROTATE_REFRESH_TOKEN = """
            with used as (
              update oauth_refresh_tokens set used_at = :now
              where token_hash = :usedHash and application_id = :applicationId
                and used_at is null and superseded_at is null and revoked_at is null
              returning grant_id, user_id, application_id, scopes),
            successor as (
              insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
              select :refreshHash, grant_id, user_id, application_id, scopes, :now from used),
            access as (
              insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
              select :accessHash, grant_id, user_id, application_id, scopes, :now, :expiresAt from used)
            select grant_id, scopes from used""";

    /** The verify path: one probe of the unique hash index. */
    static final String FIND_ACCESS_TOKEN = """
            select id, grant_id, user_id, application_id, scopes, expires_at, revoked_at
            from oauth_access_tokens where token_hash = :tokenHash""";

    private final Handle h;

    HotTokenStore(Handle h) {
        this.h = h;
    }

    void insertRefreshToken(String tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now) {
        h.createUpdate(INSERT_REFRESH_TOKEN).bind("tokenHash", tokenHash).bind("grantId", grantId).bind("userId", userId)
                .bind("applicationId", applicationId).bind("scopes", scopes).bind("now", now).execute();
    }

    void insertAccessToken(String tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now, Instant expiresAt) {
        h.createUpdate(INSERT_ACCESS_TOKEN).bind("tokenHash", tokenHash).bind("grantId", grantId).bind("userId", userId)
                .bind("applicationId", applicationId).bind("scopes", scopes).bind("now", now).bind("expiresAt", expiresAt).execute();
    }

    Optional<RefreshTokenRow> refreshToken(String tokenHash) {
        return h.createQuery(FIND_REFRESH_TOKEN).bind("tokenHash", tokenHash).map(REFRESH_TOKEN).findOne();
    }

    int useRefreshToken(long id, Instant now) {
        return h.createUpdate(USE_REFRESH_TOKEN).bind("id", id).bind("now", now).execute();
    }

    /** The grant id and scopes of the token used, when {@link #ROTATE_REFRESH_TOKEN} rotated it. */
    record Rotated(long grantId, String scopes) {}

    Optional<Rotated> rotateRefreshToken(String usedHash, long applicationId, String refreshHash, String accessHash,
                                         Instant now, Instant expiresAt) {
        return h.createQuery(ROTATE_REFRESH_TOKEN).bind("usedHash", usedHash).bind("applicationId", applicationId)
                .bind("refreshHash", refreshHash).bind("accessHash", accessHash).bind("now", now).bind("expiresAt", expiresAt)
                .map((rs, ctx) -> new Rotated(rs.getLong("grant_id"), rs.getString("scopes"))).findOne();
    }

    Optional<AccessTokenRow> accessToken(String tokenHash) {
        return h.createQuery(FIND_ACCESS_TOKEN).bind("tokenHash", tokenHash).map(ACCESS_TOKEN).findOne();
    }

    private static final RowMapper<RefreshTokenRow> REFRESH_TOKEN = (rs, ctx) -> new RefreshTokenRow(
            rs.getLong("id"), rs.getLong("grant_id"), rs.getLong("user_id"), rs.getLong("application_id"), rs.getString("scopes"),
            instant(rs, "created_at", ctx), instant(rs, "used_at", ctx), instant(rs, "superseded_at", ctx), instant(rs, "revoked_at", ctx));

    private static final RowMapper<AccessTokenRow> ACCESS_TOKEN = (rs, ctx) -> new AccessTokenRow(
            rs.getLong("id"), rs.getLong("grant_id"), rs.getLong("user_id"), rs.getLong("application_id"), rs.getString("scopes"),
            instant(rs, "expires_at", ctx), instant(rs, "revoked_at", ctx));

    /** Through the store's registered Instant mapping (UTC on both databases). */
    private static Instant instant(ResultSet rs, String column, StatementContext ctx) throws SQLException {
        return ctx.findColumnMapperFor(Instant.class).orElseThrow().map(rs, column, ctx);
    }
}
