package dev.ledgerlink.oauth;

import dev.ledgerlink.store.HotStatements;
import dev.ledgerlink.store.TimeMapping;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The statements of the hot paths: the refresh grant (read, use, insert the successor pair) and
 * bearer verification. Plain JDBC on the handle's connection (store/HotStatements says why: JDBI's
 * per-statement work cost more CPU than these statements at thousands of grants per second), with
 * the SQL in plain sight here, its parameters by position. Every token lookup is one probe of the
 * unique index on its hash (the token's SHA-256 as 32 bytes, Hashes.sha256); every "use once" is a
 * conditional UPDATE whose row count decides.
 */
final class HotTokenStore {
    static final String INSERT_REFRESH_TOKEN = """
            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
            values (?, ?, ?, ?, ?, ?)""";

    static final String INSERT_ACCESS_TOKEN = """
            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
            values (?, ?, ?, ?, ?, ?, ?)""";

    static final String FIND_REFRESH_TOKEN = """
            select id, grant_id, user_id, application_id, scopes, created_at, used_at, superseded_at, revoked_at
            from oauth_refresh_tokens where token_hash = ?""";

    /** The single-use rule: exactly one caller sees 1 for a given live token, on any node. */
    static final String USE_REFRESH_TOKEN = """
            update oauth_refresh_tokens set used_at = ?
            where id = ? and used_at is null and superseded_at is null and revoked_at is null""";

    /**
     * The whole refresh rotation as one statement, for PostgreSQL (data-modifying CTEs): use the
     * presented token once, with the same conditions as {@link #USE_REFRESH_TOKEN} plus the client's,
     * and insert the successor pair in its grant. One statement is one transaction: all three rows
     * commit together or none does, and exactly one of any number of racing statements finds the
     * row still unused (the others wait on its row lock, then see it used and return no row). No
     * row back means "not rotated"; the caller then reads the token to say why. Parameters: now, the
     * used token's hash, the client's application id, the new refresh token's hash, now, the new
     * access token's hash, now, its expiry.
     */
    static final String ROTATE_REFRESH_TOKEN = """
            with used as (
              update oauth_refresh_tokens set used_at = ?
              where token_hash = ? and application_id = ?
                and used_at is null and superseded_at is null and revoked_at is null
              returning grant_id, user_id, application_id, scopes),
            successor as (
              insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
              select ?, grant_id, user_id, application_id, scopes, ? from used),
            access as (
              insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
              select ?, grant_id, user_id, application_id, scopes, ?, ? from used)
            select grant_id, scopes from used""";

    /** The verify path: one probe of the unique hash index. */
    static final String FIND_ACCESS_TOKEN = """
            select id, grant_id, user_id, application_id, scopes, expires_at, revoked_at
            from oauth_access_tokens where token_hash = ?""";

    private final Handle h;

    HotTokenStore(Handle h) {
        this.h = h;
    }

    void insertRefreshToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now) {
        HotStatements.update(h, INSERT_REFRESH_TOKEN, s -> bindTokenColumns(s, tokenHash, grantId, userId, applicationId, scopes, now));
    }

    void insertAccessToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now, Instant expiresAt) {
        HotStatements.update(h, INSERT_ACCESS_TOKEN, s -> {
            bindTokenColumns(s, tokenHash, grantId, userId, applicationId, scopes, now);
            TimeMapping.bind(s, 7, expiresAt);
        });
    }

    /** The first six columns both token inserts share, in their order. */
    private static void bindTokenColumns(PreparedStatement s, byte[] tokenHash, long grantId, long userId, long applicationId,
                                         String scopes, Instant now) throws SQLException {
        s.setBytes(1, tokenHash);
        s.setLong(2, grantId);
        s.setLong(3, userId);
        s.setLong(4, applicationId);
        s.setString(5, scopes);
        TimeMapping.bind(s, 6, now);
    }

    Optional<RefreshTokenRow> refreshToken(byte[] tokenHash) {
        return HotStatements.queryOne(h, FIND_REFRESH_TOKEN, s -> s.setBytes(1, tokenHash), r -> new RefreshTokenRow(
                r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getString(5),
                TimeMapping.read(r, 6), TimeMapping.read(r, 7), TimeMapping.read(r, 8), TimeMapping.read(r, 9)));
    }

    int useRefreshToken(long id, Instant now) {
        return HotStatements.update(h, USE_REFRESH_TOKEN, s -> {
            TimeMapping.bind(s, 1, now);
            s.setLong(2, id);
        });
    }

    /** The grant id and scopes of the token used, when {@link #ROTATE_REFRESH_TOKEN} rotated it. */
    record Rotated(long grantId, String scopes) {}

    Optional<Rotated> rotateRefreshToken(byte[] usedHash, long applicationId, byte[] refreshHash, byte[] accessHash,
                                         Instant now, Instant expiresAt) {
        return HotStatements.queryOne(h, ROTATE_REFRESH_TOKEN, s -> {
            TimeMapping.bind(s, 1, now);
            s.setBytes(2, usedHash);
            s.setLong(3, applicationId);
            s.setBytes(4, refreshHash);
            TimeMapping.bind(s, 5, now);
            s.setBytes(6, accessHash);
            TimeMapping.bind(s, 7, now);
            TimeMapping.bind(s, 8, expiresAt);
        }, r -> new Rotated(r.getLong(1), r.getString(2)));
    }

    Optional<AccessTokenRow> accessToken(byte[] tokenHash) {
        return HotStatements.queryOne(h, FIND_ACCESS_TOKEN, s -> s.setBytes(1, tokenHash), r -> new AccessTokenRow(
                r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getString(5), TimeMapping.read(r, 6), TimeMapping.read(r, 7)));
    }
}
