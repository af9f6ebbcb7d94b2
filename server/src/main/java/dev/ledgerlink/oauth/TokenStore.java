package dev.ledgerlink.oauth;

import dev.ledgerlink.store.PlainJdbc;
import dev.ledgerlink.store.TimeMapping;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Refresh and access tokens: every statement on oauth_refresh_tokens and oauth_access_tokens outside
 * retention and the operators' listings (Grants). The statements of the hot paths, the refresh grant
 * (read, use, insert the successor pair) and bearer verification, are plain JDBC on the handle's
 * connection (store/PlainJdbc says why: JDBI's per-statement work cost more CPU than these statements
 * at thousands of grants per second), with the SQL in plain sight here, its parameters by position;
 * the rest (revoking, counting live tokens, an access token's issue time) is JDBI, further down. A token's row is found by its primary key
 * (the id in the token's selector, TokenFormat) and then taken only if its token_hash equals the hash
 * of the presented secret, compared in constant time; a token issued before V22 is found through
 * oauth_legacy_token_hashes. Every "use once" is a conditional UPDATE whose row count decides.
 */
public final class TokenStore {
    static final String INSERT_REFRESH_TOKEN = """
            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
            values (?, ?, ?, ?, ?, ?)""";

    static final String INSERT_ACCESS_TOKEN = """
            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
            values (?, ?, ?, ?, ?, ?, ?)""";

    /**
     * A refresh token with its grant's superseding: a token is superseded when its grant is (since
     * V23), or when it was marked itself (before V23).
     */
    private static final String REFRESH_COLUMNS = "r.id, r.grant_id, r.user_id, r.application_id, r.scopes, r.created_at, r.used_at, "
            + "coalesce(r.superseded_at, g.superseded_at), r.revoked_at, r.token_hash";

    static final String FIND_REFRESH_TOKEN = "select " + REFRESH_COLUMNS
            + " from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id where r.id = ?";

    static final String FIND_LEGACY_REFRESH_TOKEN = "select " + REFRESH_COLUMNS + """
             from oauth_legacy_token_hashes l join oauth_refresh_tokens r on r.id = l.refresh_token_id
            join oauth_grants g on g.id = r.grant_id
            where l.token_hash = ?""";

    /**
     * The single-use rule: exactly one caller sees 1 for a given live token, on any node. Whether its
     * grant is superseded was read with the token; a grant superseded since then only makes the
     * successor minted after this update a token of a superseded grant (not live), as intended.
     */
    static final String USE_REFRESH_TOKEN = "update oauth_refresh_tokens r set used_at = ? where r.id = ? and "
            + RefreshLiveness.TOKEN_LIVE;

    /**
     * One refresh rotation as one statement, for PostgreSQL (data-modifying CTEs): use the presented
     * token once, with the same conditions as {@link #USE_REFRESH_TOKEN} plus its grant's (not
     * superseded), the client's and the secret's (the database compares the two SHA-256 values: no
     * timing tells anything about a hash whose input nobody can choose), and insert its successor
     * pair in its grant. One statement is one transaction: all three rows commit together or none
     * does, and exactly one of any number of racing statements finds the row still unused (the others
     * wait on its row lock, then see it used and return no row). No row back means "not rotated"; the caller then reads the token to
     * say why. Parameters: now, the used token's id and hash, the client's application id, the new
     * refresh token's hash, now, the new access token's hash, now, its expiry. Returns the grant, its
     * scopes and the ids of the new refresh and access tokens. {@link #ROTATE_REFRESH_TOKENS} is the
     * same for many tokens at once; this one stays for a lone grant because it is cheaper to plan and
     * run than the group statement's arrays (docs/benchmarks-history.md, "Refresh rotations in one
     * statement per group"). Both are planned every time they run.
     */
    static final String ROTATE_REFRESH_TOKEN = """
            with used as (
              update oauth_refresh_tokens r set used_at = ?
              from oauth_grants g
              where r.id = ? and r.token_hash = ? and r.application_id = ? and g.id = r.grant_id
                and\s""" + RefreshLiveness.TOKEN_LIVE + " and " + RefreshLiveness.GRANT_LIVE + """

              returning r.id, r.grant_id, r.user_id, r.application_id, r.scopes),
            successor as (
              insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
              select ?, grant_id, user_id, application_id, scopes, ? from used
              returning id),
            access as (
              insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
              select ?, grant_id, user_id, application_id, scopes, ?, ? from used
              returning id)
            select used.id, used.grant_id, used.scopes, successor.id, access.id from used, successor, access""";

    /**
     * Refresh rotations as one statement, for PostgreSQL (data-modifying CTEs), for the tokens of
     * concurrent grants (oauth/RotationBatches; a lone grant takes {@link #ROTATE_REFRESH_TOKEN}): use each presented token
     * once, with the same conditions as {@link #ROTATE_REFRESH_TOKEN} (its grant not superseded, the
     * client's, the secret's), and insert its successor pair in its grant. One statement is one
     * transaction: all its rows commit together or none does. Of any number of racing statements
     * that present the same token, exactly one finds its row still unused (the others wait on its
     * row lock, then see it used and rotate nothing for it); within one statement each token must be
     * presented once (the caller's duty: an UPDATE joined to two rows of one token updates it once).
     * A token that rotates nothing returns no row; the caller then reads it to say why.
     *
     * <p>Parameters: arrays of equal length, one element per presented token: its id and hash, the
     * client's application id, the new refresh token's hash, the new access token's hash, the time of
     * the grant and the access token's expiry (ISO-8601 text, exact to the microsecond). Returns, per
     * rotated token, its id, the grant, its scopes and the ids of the new refresh and access tokens
     * (matched to their token by their hashes, which are unique: SHA-256 of 256 random bits).
     */
    static final String ROTATE_REFRESH_TOKENS = """
            with presented as (
              select * from unnest(?::bigint[], ?::bytea[], ?::bigint[], ?::bytea[], ?::bytea[], ?::text[]::timestamptz[], ?::text[]::timestamptz[])
                as p(id, token_hash, application_id, refresh_hash, access_hash, granted_at, expires_at)),
            used as (
              update oauth_refresh_tokens r set used_at = p.granted_at
              from presented p, oauth_grants g
              where r.id = p.id and r.token_hash = p.token_hash and r.application_id = p.application_id and g.id = r.grant_id
                and\s""" + RefreshLiveness.TOKEN_LIVE + " and " + RefreshLiveness.GRANT_LIVE + """

              returning r.id, r.grant_id, r.user_id, r.application_id, r.scopes, p.refresh_hash, p.access_hash, p.granted_at, p.expires_at),
            successor as (
              insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
              select refresh_hash, grant_id, user_id, application_id, scopes, granted_at from used
              returning id, token_hash),
            access as (
              insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
              select access_hash, grant_id, user_id, application_id, scopes, granted_at, expires_at from used
              returning id, token_hash)
            select used.id, used.grant_id, used.scopes, successor.id, access.id
            from used join successor on successor.token_hash = used.refresh_hash join access on access.token_hash = used.access_hash""";

    private static final String ACCESS_COLUMNS = "a.id, a.grant_id, a.user_id, a.application_id, a.scopes, a.expires_at, a.revoked_at, a.token_hash";

    /** The verify path: one probe of the primary key. */
    static final String FIND_ACCESS_TOKEN = "select " + ACCESS_COLUMNS + " from oauth_access_tokens a where a.id = ?";

    static final String FIND_LEGACY_ACCESS_TOKEN = "select " + ACCESS_COLUMNS + """
             from oauth_legacy_token_hashes l join oauth_access_tokens a on a.id = l.access_token_id
            where l.token_hash = ?""";

    private final Handle h;

    public TokenStore(Handle h) {
        this.h = h;
    }

    /** Returns the new row's id (the token's selector). */
    long insertRefreshToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now) {
        return PlainJdbc.insert(h, INSERT_REFRESH_TOKEN, s -> bindTokenColumns(s, tokenHash, grantId, userId, applicationId, scopes, now));
    }

    /** Returns the new row's id (the token's selector). */
    long insertAccessToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now, Instant expiresAt) {
        return PlainJdbc.insert(h, INSERT_ACCESS_TOKEN, s -> {
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

    /** The refresh token presented, if it is one of ours and its secret matches. */
    Optional<RefreshTokenRow> refreshToken(TokenFormat.Presented token) {
        return find(token, TokenFormat.Kind.REFRESH, FIND_REFRESH_TOKEN, FIND_LEGACY_REFRESH_TOKEN, 10, r -> new RefreshTokenRow(
                r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getString(5),
                TimeMapping.read(r, 6), TimeMapping.read(r, 7), TimeMapping.read(r, 8), TimeMapping.read(r, 9)));
    }

    /**
     * How a presented token finds its row, for both kinds: one of ours of this kind by its id, one
     * issued before V22 through the legacy hashes; either way the row counts only if its token_hash
     * (column {@code hashColumn} of the query) equals the presented hash, compared in constant time.
     */
    private <T> Optional<T> find(TokenFormat.Presented token, TokenFormat.Kind kind, String byId, String byLegacyHash,
                                 int hashColumn, PlainJdbc.RowReader<T> row) {
        return switch (token) {
            case TokenFormat.Selected t when t.kind() == kind -> matching(byId, s -> s.setLong(1, t.id()), t.hash(), hashColumn, row);
            case TokenFormat.Legacy t -> matching(byLegacyHash, s -> s.setBytes(1, t.hash()), t.hash(), hashColumn, row);
            default -> Optional.empty();
        };
    }

    private <T> Optional<T> matching(String sql, PlainJdbc.Binder key, byte[] hash, int hashColumn, PlainJdbc.RowReader<T> row) {
        return PlainJdbc.queryOne(h, sql, key, r -> MessageDigest.isEqual(r.getBytes(hashColumn), hash) ? row.read(r) : null);
    }

    int useRefreshToken(long id, Instant now) {
        return PlainJdbc.update(h, USE_REFRESH_TOKEN, s -> {
            TimeMapping.bind(s, 1, now);
            s.setLong(2, id);
        });
    }

    /** One presented token's rotation, as {@link #ROTATE_REFRESH_TOKENS} takes it. */
    record Rotation(TokenFormat.Selected used, long applicationId, byte[] refreshHash, byte[] accessHash, Instant now, Instant expiresAt) {}

    /** What {@link #ROTATE_REFRESH_TOKENS} did for a token it rotated. */
    record Rotated(long usedId, long grantId, String scopes, long refreshTokenId, long accessTokenId) {}

    /**
     * Rotates the token if it is live, this client's and its secret matches. Planned every time it
     * runs, like the group statement: a plan PostgreSQL kept from a database whose token and grant
     * tables had one page is a sequential scan of both, until the next ANALYZE.
     */
    Optional<Rotated> rotateRefreshToken(Rotation r) {
        return PlainJdbc.queryOnePlannedEachTime(h, ROTATE_REFRESH_TOKEN, s -> {
            TimeMapping.bind(s, 1, r.now());
            s.setLong(2, r.used().id());
            s.setBytes(3, r.used().hash());
            s.setLong(4, r.applicationId());
            s.setBytes(5, r.refreshHash());
            TimeMapping.bind(s, 6, r.now());
            s.setBytes(7, r.accessHash());
            TimeMapping.bind(s, 8, r.now());
            TimeMapping.bind(s, 9, r.expiresAt());
        }, ROTATED);
    }

    private static final PlainJdbc.RowReader<Rotated> ROTATED = r -> new Rotated(r.getLong(1), r.getLong(2), r.getString(3), r.getLong(4), r.getLong(5));

    /** Rotates those of the tokens (each presented once) that are live, this client's and whose secret matches. */
    List<Rotated> rotateRefreshTokens(List<Rotation> rotations) {
        int n = rotations.size();
        Long[] ids = new Long[n];
        byte[][] hashes = new byte[n][];
        Long[] applications = new Long[n];
        byte[][] refreshHashes = new byte[n][];
        byte[][] accessHashes = new byte[n][];
        String[] grantedAt = new String[n];
        String[] expiresAt = new String[n];
        for (int i = 0; i < n; i++) {
            Rotation r = rotations.get(i);
            ids[i] = r.used().id();
            hashes[i] = r.used().hash();
            applications[i] = r.applicationId();
            refreshHashes[i] = r.refreshHash();
            accessHashes[i] = r.accessHash();
            grantedAt[i] = r.now().toString();
            expiresAt[i] = r.expiresAt().toString();
        }
        Connection c = h.getConnection();
        return PlainJdbc.queryPlannedEachTime(h, ROTATE_REFRESH_TOKENS, s -> {
            s.setArray(1, c.createArrayOf("bigint", ids));
            s.setArray(2, c.createArrayOf("bytea", hashes));
            s.setArray(3, c.createArrayOf("bigint", applications));
            s.setArray(4, c.createArrayOf("bytea", refreshHashes));
            s.setArray(5, c.createArrayOf("bytea", accessHashes));
            s.setArray(6, c.createArrayOf("text", grantedAt));
            s.setArray(7, c.createArrayOf("text", expiresAt));
        }, ROTATED);
    }

    /** The access token presented, if it is one of ours and its secret matches. */
    Optional<AccessTokenRow> accessToken(TokenFormat.Presented token) {
        return find(token, TokenFormat.Kind.ACCESS, FIND_ACCESS_TOKEN, FIND_LEGACY_ACCESS_TOKEN, 8, r -> new AccessTokenRow(
                r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getString(5), TimeMapping.read(r, 6), TimeMapping.read(r, 7)));
    }

    // Off the hot paths: JDBI.

    static final String REVOKE_ACCESS_TOKEN = "update oauth_access_tokens set revoked_at = :now where id = :id and revoked_at is null";

    static final String REVOKE_ACCESS_TOKENS_OF_GRANT =
            "update oauth_access_tokens set revoked_at = :now where grant_id = :grantId and revoked_at is null";

    static final String REVOKE_REFRESH_TOKENS_OF_GRANT =
            "update oauth_refresh_tokens set revoked_at = :now where grant_id = :grantId and revoked_at is null";

    static final String COUNT_LIVE_REFRESH_TOKENS = """
            select count(*) from oauth_grants g join oauth_refresh_tokens r on r.grant_id = g.id
            where g.user_id = :userId and g.application_id = :applicationId
              and\s""" + RefreshLiveness.GRANT_LIVE + " and " + RefreshLiveness.TOKEN_LIVE;

    static final String ACCESS_TOKEN_CREATED_AT = "select created_at from oauth_access_tokens where id = :id";

    int revokeAccessToken(long id, Instant now) {
        return h.createUpdate(REVOKE_ACCESS_TOKEN).bind("id", id).bind("now", now).execute();
    }

    int revokeAccessTokensOfGrant(long grantId, Instant now) {
        return h.createUpdate(REVOKE_ACCESS_TOKENS_OF_GRANT).bind("grantId", grantId).bind("now", now).execute();
    }

    int revokeRefreshTokensOfGrant(long grantId, Instant now) {
        return h.createUpdate(REVOKE_REFRESH_TOKENS_OF_GRANT).bind("grantId", grantId).bind("now", now).execute();
    }

    /** How many refresh tokens of this user and application are live (the rule says: at most one). */
    public int countLiveRefreshTokens(long userId, long applicationId) {
        return h.createQuery(COUNT_LIVE_REFRESH_TOKENS).bind("userId", userId).bind("applicationId", applicationId).mapTo(Integer.class).one();
    }

    Instant accessTokenCreatedAt(long id) {
        return h.createQuery(ACCESS_TOKEN_CREATED_AT).bind("id", id).mapTo(Instant.class).one();
    }
}
