package dev.ledgerlink.oauth;

import dev.ledgerlink.oauth.RefreshTokenGrant.Guard;
import dev.ledgerlink.store.GroupedWrites;
import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import dev.ledgerlink.store.TimeMapping;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * Refresh and access tokens: every statement on oauth_refresh_tokens and oauth_access_tokens outside
 * retention and the operators' listings (Grants). The statements of the hot paths, the refresh grant
 * (use a token once and mint its successors) and bearer verification, are plain JDBC on the
 * handle's connection (store/PlainJdbc says why), written with named parameters (store/Named); the
 * rest (revoking, counting live tokens, an access token's issue time) is JDBI, further down. A token's
 * row is found by its primary key (the id in the token's selector, TokenFormat) and then taken only
 * if its token_hash equals the hash of the presented secret; a token issued before V22 is found
 * through oauth_legacy_token_hashes. Every "use once" is a conditional UPDATE whose row count decides.
 *
 * <p>The refresh rotation's statements, per database, are {@link #ROTATIONS}: the port
 * store/GroupedWrites runs them, TokenService#rotate asks it. Their guards are
 * RefreshTokenGrant.Guard's SQL, never written here.
 */
public final class TokenStore {
    static final Named INSERT_REFRESH_TOKEN = Named.sql("""
            insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
            values (:hash, :grantId, :userId, :applicationId, :scopes, :now)""");

    static final Named INSERT_ACCESS_TOKEN = Named.sql("""
            insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
            values (:hash, :grantId, :userId, :applicationId, :scopes, :now, :expiresAt)""");

    /**
     * A refresh token with its grant's superseding (a token is superseded when its grant is, since
     * V23, or when it was marked itself, before) and each guard's verdict for the client
     * {@code :applicationId}, in the order of RefreshTokenGrant.Guard.
     */
    private static final String REFRESH_COLUMNS = "r.id, r.grant_id, r.user_id, r.application_id, r.scopes, r.created_at, r.used_at, "
            + "coalesce(r.superseded_at, g.superseded_at), r.revoked_at, r.token_hash, " + Guard.verdicts(":applicationId");
    private static final int HASH_COLUMN = 10;
    private static final int FIRST_VERDICT = 11;

    static final Named FIND_REFRESH_TOKEN = Named.sql("select " + REFRESH_COLUMNS
            + " from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id where r.id = :id");

    static final Named FIND_LEGACY_REFRESH_TOKEN = Named.sql("select " + REFRESH_COLUMNS + """
             from oauth_legacy_token_hashes l join oauth_refresh_tokens r on r.id = l.refresh_token_id
            join oauth_grants g on g.id = r.grant_id
            where l.token_hash = :hash""");

    /** A refresh token issued before V22: its row, by the hash of the whole string. */
    static final Named LEGACY_REFRESH_TOKEN_ID = Named.sql("select refresh_token_id from oauth_legacy_token_hashes where token_hash = :hash");

    /**
     * H2's single use, after the rotation's transaction read the token and found every guard holding:
     * exactly one caller sees 1 for a given token, on any node. The token's own guards are asked again,
     * since a racing grant (used) or revocation may have changed them since the read; a grant
     * superseded since then only makes the successor minted after this a token of a superseded grant
     * (not live), as intended.
     */
    static final Named USE_REFRESH_TOKEN = Named.sql("update oauth_refresh_tokens r set used_at = :now where r.id = :id and "
            + RefreshTokenGrant.TOKEN_LIVE);

    /**
     * PostgreSQL: one refresh rotation as one statement (data-modifying CTEs): use the presented token
     * once where every guard holds and its secret matches (the database compares the two SHA-256 values:
     * no timing tells anything about a hash whose input nobody can choose), and insert its successor
     * pair in its grant. One statement is one transaction: all three rows commit together or none does,
     * and exactly one of any number of racing statements finds the row still unused (the others wait on
     * its row lock, then see it used and return no row). No row back means "not used"; the grant then
     * reads the token to say why. {@link #ROTATE_REFRESH_TOKENS} is the same for many tokens at once;
     * this one stays for a lone grant because it is cheaper to plan and run than the group statement's
     * arrays. Both are planned every time they run ({@link #rotateRefreshToken}).
     */
    static final Named ROTATE_REFRESH_TOKEN = Named.sql("""
            with used as (
              update oauth_refresh_tokens r set used_at = :now
              from oauth_grants g
              where r.id = :id and r.token_hash = :hash and g.id = r.grant_id
                and\s""" + Guard.allHold(":applicationId") + """

              returning r.id, r.grant_id, r.user_id, r.application_id, r.scopes),
            successor as (
              insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)
              select :refreshHash, grant_id, user_id, application_id, scopes, :now from used
              returning id),
            access as (
              insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)
              select :accessHash, grant_id, user_id, application_id, scopes, :now, :expiresAt from used
              returning id)
            select used.id, used.grant_id, used.scopes, successor.id, access.id from used, successor, access""");

    /**
     * PostgreSQL: the refresh rotations of concurrent grants as one statement, each as
     * {@link #ROTATE_REFRESH_TOKEN} does it for one: one statement is one transaction, all its rows
     * commit together or none does; of racing statements that present the same token exactly one finds
     * its row unused; within one statement each token must be presented once (GroupedWrites sees to
     * it: an UPDATE joined to two rows of one token updates it once). The presented tokens come as
     * arrays of equal length, one element each (times as ISO-8601 text, exact to the microsecond).
     * Returns, per token used, its id, the grant, its scopes and the ids of the new refresh and access
     * tokens (matched to their token by their hashes, which are unique: SHA-256 of 256 random bits).
     */
    static final Named ROTATE_REFRESH_TOKENS = Named.sql("""
            with presented as (
              select * from unnest(:ids::bigint[], :hashes::bytea[], :applicationIds::bigint[], :refreshHashes::bytea[],
                                   :accessHashes::bytea[], :grantedAt::text[]::timestamptz[], :expiresAt::text[]::timestamptz[])
                as p(id, token_hash, application_id, refresh_hash, access_hash, granted_at, expires_at)),
            used as (
              update oauth_refresh_tokens r set used_at = p.granted_at
              from presented p, oauth_grants g
              where r.id = p.id and r.token_hash = p.token_hash and g.id = r.grant_id
                and\s""" + Guard.allHold("p.application_id") + """

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
            from used join successor on successor.token_hash = used.refresh_hash join access on access.token_hash = used.access_hash""");

    private static final String ACCESS_COLUMNS = "a.id, a.grant_id, a.user_id, a.application_id, a.scopes, a.expires_at, a.revoked_at, a.token_hash";

    /** The verify path: one probe of the primary key. */
    static final Named FIND_ACCESS_TOKEN = Named.sql("select " + ACCESS_COLUMNS + " from oauth_access_tokens a where a.id = :id");

    static final Named FIND_LEGACY_ACCESS_TOKEN = Named.sql("select " + ACCESS_COLUMNS + """
             from oauth_legacy_token_hashes l join oauth_access_tokens a on a.id = l.access_token_id
            where l.token_hash = :hash""");

    /** A client's id no application has: a token read for no client in particular fails ISSUED_TO_CLIENT, which no such reader asks. */
    static final long NO_CLIENT = -1;

    private final Handle h;

    public TokenStore(Handle h) {
        this.h = h;
    }

    /** Returns the new row's id (the token's selector). */
    long insertRefreshToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now) {
        return PlainJdbc.insert(h, INSERT_REFRESH_TOKEN, p -> p.set("hash", tokenHash).set("grantId", grantId).set("userId", userId)
                .set("applicationId", applicationId).set("scopes", scopes).set("now", now));
    }

    /** Returns the new row's id (the token's selector). */
    long insertAccessToken(byte[] tokenHash, long grantId, long userId, long applicationId, String scopes, Instant now, Instant expiresAt) {
        return PlainJdbc.insert(h, INSERT_ACCESS_TOKEN, p -> p.set("hash", tokenHash).set("grantId", grantId).set("userId", userId)
                .set("applicationId", applicationId).set("scopes", scopes).set("now", now).set("expiresAt", expiresAt));
    }

    /** The refresh token presented, if it is one of ours and its secret matches, with each guard's verdict for client {@code applicationId}. */
    Optional<RefreshTokenRow> refreshToken(TokenFormat.Presented token, long applicationId) {
        return find(token, TokenFormat.Kind.REFRESH, FIND_REFRESH_TOKEN, FIND_LEGACY_REFRESH_TOKEN, HASH_COLUMN,
                p -> p.set("applicationId", applicationId), TokenStore::refreshRow);
    }

    /** The refresh token presented, read for no client in particular (revocation checks the client itself, introspection reads liveness). */
    Optional<RefreshTokenRow> refreshToken(TokenFormat.Presented token) {
        return refreshToken(token, NO_CLIENT);
    }

    private static RefreshTokenRow refreshRow(ResultSet r) throws SQLException {
        Set<Guard> failing = EnumSet.noneOf(Guard.class);
        for (Guard g : Guard.values()) if (!r.getBoolean(FIRST_VERDICT + g.ordinal())) failing.add(g);
        return new RefreshTokenRow(r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getString(5),
                TimeMapping.read(r, 6), TimeMapping.read(r, 7), TimeMapping.read(r, 8), TimeMapping.read(r, 9), failing);
    }

    /** A refresh token issued before V22, as a selector of its row (which keeps its hash in token_hash); empty when there is none. */
    Optional<TokenFormat.Selected> legacyRefreshToken(TokenFormat.Legacy token) {
        return PlainJdbc.queryOne(h, LEGACY_REFRESH_TOKEN_ID, p -> p.set("hash", token.hash()),
                r -> new TokenFormat.Selected(TokenFormat.Kind.REFRESH, r.getLong(1), token.hash()));
    }

    /**
     * How a presented token finds its row, for both kinds: one of ours of this kind by its id, one
     * issued before V22 through the legacy hashes; either way the row counts only if its token_hash
     * (column {@code hashColumn} of the query) equals the presented hash, compared in constant time.
     */
    private <T> Optional<T> find(TokenFormat.Presented token, TokenFormat.Kind kind, Named byId, Named byLegacyHash, int hashColumn,
                                 PlainJdbc.Binder also, PlainJdbc.RowReader<T> row) {
        return switch (token) {
            case TokenFormat.Selected t when t.kind() == kind -> matching(byId, p -> also.bind(p.set("id", t.id())), t.hash(), hashColumn, row);
            case TokenFormat.Legacy t -> matching(byLegacyHash, p -> also.bind(p.set("hash", t.hash())), t.hash(), hashColumn, row);
            default -> Optional.empty();
        };
    }

    private <T> Optional<T> matching(Named sql, PlainJdbc.Binder key, byte[] hash, int hashColumn, PlainJdbc.RowReader<T> row) {
        return PlainJdbc.queryOne(h, sql, key, r -> MessageDigest.isEqual(r.getBytes(hashColumn), hash) ? row.read(r) : null);
    }

    /** One presented refresh token's rotation: its successors' hashes, the time of the grant and the access token's expiry. */
    record Rotation(TokenFormat.Selected used, long applicationId, byte[] refreshHash, byte[] accessHash, Instant now, Instant expiresAt) {}

    /** What a rotation did for a token it used. */
    record Rotated(long usedId, long grantId, String scopes, long refreshTokenId, long accessTokenId) {}

    /** The rotation's statements, per database, as store/GroupedWrites runs them. */
    static final GroupedWrites.Statements<Rotation, Rotated> ROTATIONS = new GroupedWrites.Statements<>() {
        @Override
        public long key(Rotation r) {
            return r.used().id();
        }

        @Override
        public Optional<Rotated> inTransaction(Handle h, Rotation r) {
            return new TokenStore(h).rotateInTransaction(r);
        }

        @Override
        public Optional<Rotated> alone(Handle h, Rotation r) {
            return new TokenStore(h).rotateRefreshToken(r);
        }

        @Override
        public Map<Long, Rotated> together(Handle h, List<Rotation> rotations) {
            Map<Long, Rotated> byToken = new HashMap<>();
            for (Rotated r : new TokenStore(h).rotateRefreshTokens(rotations)) byToken.put(r.usedId(), r);
            return byToken;
        }
    };

    /**
     * H2: the rotation as statements of the caller's transaction: the token read with its guards'
     * verdicts (a refusal writes nothing), used once, its successor pair inserted in its grant.
     */
    Optional<Rotated> rotateInTransaction(Rotation r) {
        Optional<RefreshTokenRow> found = refreshToken(r.used(), r.applicationId());
        if (found.isEmpty() || !found.get().passesEveryGuard()) return Optional.empty();
        RefreshTokenRow t = found.get();
        int used = PlainJdbc.update(h, USE_REFRESH_TOKEN, p -> p.set("now", r.now()).set("id", t.id()));
        if (used != 1) return Optional.empty();   // a racing grant used it, or a revocation ended it, since the read
        long refreshId = insertRefreshToken(r.refreshHash(), t.grantId(), t.userId(), t.applicationId(), t.scopes(), r.now());
        long accessId = insertAccessToken(r.accessHash(), t.grantId(), t.userId(), t.applicationId(), t.scopes(), r.now(), r.expiresAt());
        return Optional.of(new Rotated(t.id(), t.grantId(), t.scopes(), refreshId, accessId));
    }

    /**
     * PostgreSQL: a lone rotation in one statement. Planned every time it runs, like the group
     * statement: a plan PostgreSQL kept from a database whose token and grant tables had one page is a
     * sequential scan of both, until the next ANALYZE.
     */
    Optional<Rotated> rotateRefreshToken(Rotation r) {
        return PlainJdbc.queryOnePlannedEachTime(h, ROTATE_REFRESH_TOKEN, p -> p.set("now", r.now()).set("id", r.used().id())
                .set("hash", r.used().hash()).set("applicationId", r.applicationId()).set("refreshHash", r.refreshHash())
                .set("accessHash", r.accessHash()).set("expiresAt", r.expiresAt()), ROTATED);
    }

    private static final PlainJdbc.RowReader<Rotated> ROTATED = r -> new Rotated(r.getLong(1), r.getLong(2), r.getString(3), r.getLong(4), r.getLong(5));

    /** PostgreSQL: rotates those of the tokens (each presented once) whose guards hold and whose secret matches, in one statement. */
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
        return PlainJdbc.queryPlannedEachTime(h, ROTATE_REFRESH_TOKENS, p -> p
                .set("ids", c.createArrayOf("bigint", ids))
                .set("hashes", c.createArrayOf("bytea", hashes))
                .set("applicationIds", c.createArrayOf("bigint", applications))
                .set("refreshHashes", c.createArrayOf("bytea", refreshHashes))
                .set("accessHashes", c.createArrayOf("bytea", accessHashes))
                .set("grantedAt", c.createArrayOf("text", grantedAt))
                .set("expiresAt", c.createArrayOf("text", expiresAt)), ROTATED);
    }

    /** The access token presented, if it is one of ours and its secret matches. */
    Optional<AccessTokenRow> accessToken(TokenFormat.Presented token) {
        return find(token, TokenFormat.Kind.ACCESS, FIND_ACCESS_TOKEN, FIND_LEGACY_ACCESS_TOKEN, 8, p -> {}, r -> new AccessTokenRow(
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
              and\s""" + RefreshTokenGrant.GRANT_LIVE + " and " + RefreshTokenGrant.TOKEN_LIVE;

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
