package dev.ledgerlink.oauth;

import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.GroupedWrites;
import dev.ledgerlink.accounts.Scopes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Issuing and verifying tokens: the one place a token pair is minted (a new authorization's,
 * {@link #issueForNewGrant}; a refresh's successors, {@link #rotate}) and the bearer verification path.
 *
 * <p>A token is a selector (its row) and 256 random bits, of which only the SHA-256 is stored
 * (TokenFormat). Only one refresh token per (user, application) is live: a refresh token is live
 * while it is unused, unrevoked and its grant is not superseded (TokenStore reads the two
 * together); a refresh replaces the live token of its grant with a conditional UPDATE of its row and
 * a successor in the same grant, so a grant holds at most one live token; a new authorization takes
 * the pair's slot row lock (new authorizations of one pair never interleave) and supersedes the pair's
 * live grant before it inserts its own, so a pair has at most one grant not superseded (see
 * issueForNewGrant).
 */
public final class TokenService implements AccessTokenVerifier {
    /** Longer strings are not ours; refuse them before hashing. */
    static final int MAX_TOKEN_LENGTH = 512;

    private final Jdbi jdbi;
    private final Clock clock;
    private final Duration accessTokenTtl;
    private final TokenFormat format;
    private final GroupedWrites<TokenStore.Rotation, TokenStore.Rotated> rotations;

    /** @param rotations how the database runs the refresh rotation's statements ({@link #rotations}) */
    public TokenService(Jdbi jdbi, Clock clock, Duration accessTokenTtl, TokenFormat format,
                        GroupedWrites<TokenStore.Rotation, TokenStore.Rotated> rotations) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.accessTokenTtl = accessTokenTtl;
        this.format = format;
        this.rotations = rotations;
    }

    /** How this installation's tokens are written and read: the grants, revocation and introspection parse with it. */
    TokenFormat format() {
        return format;
    }

    /** A presented token string: longer than any of ours is {@link TokenFormat.Foreign}, refused before hashing. */
    TokenFormat.Presented parse(String token) {
        return token.length() > MAX_TOKEN_LENGTH ? new TokenFormat.Foreign() : format.parse(token);
    }

    /**
     * The refresh rotation's statements, per database, run the database's fastest way (store/GroupedWrites:
     * H2 shares commits, PostgreSQL shares statements). Made once per process, with its database.
     */
    public static GroupedWrites<TokenStore.Rotation, TokenStore.Rotated> rotations(Database database) {
        return GroupedWrites.of(database, "refresh-rotation", TokenStore.ROTATIONS);
    }

    public Clock clock() {
        return clock;
    }

    /**
     * A new authorization of {@code scopes} for this user and application, outside any browser flow
     * (tests, operators): the same minting the authorization code grant does.
     */
    public TokenPair issue(long userId, long applicationId, Set<String> scopes) {
        return jdbi.inTransaction(h -> issueForNewGrant(h, userId, applicationId, scopes, null));
    }

    /** Inside the caller's transaction: a new grant, older refresh tokens of the pair superseded, a new pair. */
    TokenPair issueForNewGrant(Handle h, long userId, long applicationId, Set<String> scopes, Long codeId) {
        GrantStore store = h.attach(GrantStore.class);
        Instant now = now();
        String scopeString = Scopes.join(scopes);
        store.ensureSlot(userId, applicationId, now);
        store.lockSlot(userId, applicationId, now);
        // A refresh of the superseded grant racing with us may still commit a successor; it is born in
        // a superseded grant, so not live: refreshes never take the slot lock, nor a lock on the grant.
        store.supersedeLiveGrant(userId, applicationId, now);
        long grantId = store.insertGrant(userId, applicationId, codeId, scopeString, now);
        return mint(new TokenStore(h), grantId, userId, applicationId, scopeString, now);
    }

    /**
     * Uses the presented refresh token once and mints its successor pair in its grant, in one write
     * that holds every guard of RefreshTokenGrant as its condition; empty when it did not (a guard
     * failed, the secret did not match, or the token is none of ours), having written nothing. Of any
     * number of requests racing with one token, exactly one gets a pair. Durable when it returns.
     */
    Optional<TokenPair> rotate(TokenFormat.Presented presented, long applicationId) {
        Optional<TokenFormat.Selected> used = switch (presented) {
            case TokenFormat.Selected t when t.kind() == TokenFormat.Kind.REFRESH -> Optional.of(t);
            case TokenFormat.Legacy t -> jdbi.withHandle(h -> new TokenStore(h).legacyRefreshToken(t));   // issued before V22: its row first
            default -> Optional.empty();
        };
        if (used.isEmpty()) return Optional.empty();
        byte[] access = TokenFormat.newSecret();
        byte[] refresh = TokenFormat.newSecret();
        Instant now = now();
        Instant expiresAt = now.plus(accessTokenTtl);
        return rotations.write(new TokenStore.Rotation(used.get(), applicationId, TokenFormat.hashOf(refresh), TokenFormat.hashOf(access), now, expiresAt))
                .map(r -> new TokenPair(format.encode(TokenFormat.Kind.ACCESS, r.accessTokenId(), access),
                        format.encode(TokenFormat.Kind.REFRESH, r.refreshTokenId(), refresh),
                        Scopes.parse(r.scopes()), now, expiresAt, r.grantId()));
    }

    private TokenPair mint(TokenStore store, long grantId, long userId, long applicationId, String scopes, Instant now) {
        byte[] access = TokenFormat.newSecret();
        byte[] refresh = TokenFormat.newSecret();
        Instant expiresAt = now.plus(accessTokenTtl);
        long refreshId = store.insertRefreshToken(TokenFormat.hashOf(refresh), grantId, userId, applicationId, scopes, now);
        long accessId = store.insertAccessToken(TokenFormat.hashOf(access), grantId, userId, applicationId, scopes, now, expiresAt);
        return new TokenPair(format.encode(TokenFormat.Kind.ACCESS, accessId, access), format.encode(TokenFormat.Kind.REFRESH, refreshId, refresh),
                Scopes.parse(scopes), now, expiresAt, grantId);
    }

    /** Ends every token of a grant; returns how many were still live. */
    int revokeGrant(Handle h, long grantId) {
        TokenStore store = new TokenStore(h);
        Instant now = now();
        return store.revokeRefreshTokensOfGrant(grantId, now) + store.revokeAccessTokensOfGrant(grantId, now);
    }

    /** Whole microseconds: what both databases store, so a stored instant reads back exactly. */
    Instant now() {
        return DbTime.now(clock);
    }

    /** The bearer path: one indexed query, then expiry against the injected clock. */
    @Override
    public Optional<TokenPrincipal> verify(String accessToken) {
        if (accessToken == null || accessToken.isEmpty() || accessToken.length() > MAX_TOKEN_LENGTH) return Optional.empty();
        TokenFormat.Presented token = format.parse(accessToken);
        if (token instanceof TokenFormat.Foreign) return Optional.empty();
        Optional<AccessTokenRow> row = jdbi.withHandle(h -> new TokenStore(h).accessToken(token));
        if (row.isEmpty() || row.get().revokedAt() != null || !clock.instant().isBefore(row.get().expiresAt())) return Optional.empty();
        AccessTokenRow t = row.get();
        return Optional.of(new TokenPrincipal(t.userId(), t.applicationId(), Scopes.parse(t.scopes()), t.expiresAt()));
    }

    /**
     * An access token string as presented, parsed without the database: what {@link #issuedTo} looks
     * up. Holds the secret's hash, not the secret.
     */
    public TokenFormat.Presented presented(String accessToken) {
        return accessToken == null || accessToken.isEmpty() ? new TokenFormat.Foreign() : parse(accessToken);
    }

    /**
     * The application an access token was issued to, whatever its state now (expired or revoked);
     * empty for a token never issued (one that cannot be ours without a statement). Development mode's
     * journal and fault rules name the application of a refused token by it (docs/sandbox.md,
     * "Journal"): it authenticates nothing.
     */
    public Optional<Long> issuedTo(TokenFormat.Presented token) {
        if (token instanceof TokenFormat.Foreign) return Optional.empty();
        return jdbi.withHandle(h -> new TokenStore(h).accessToken(token)).map(AccessTokenRow::applicationId);
    }

    /** How many refresh tokens of this user and application are live (the rule says: at most one). */
    public int liveRefreshTokens(long userId, long applicationId) {
        return jdbi.withHandle(h -> new TokenStore(h).countLiveRefreshTokens(userId, applicationId));
    }
}
