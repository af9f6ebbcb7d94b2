package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.GroupCommit;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * grant_type=refresh_token (RFC 6749 §6), for a client already authenticated. Refresh tokens are
 * single use and never expire; only the latest one of a (user, application) is live.
 *
 * <p>Replay detection (RFC 9700 §4.14.2): a used token presented again later than the replay window
 * is taken as stolen, so the whole grant (its live refresh token and its access tokens) is revoked.
 * Within the window it is taken for a client's own retry race and only refused.
 *
 * <p>The whole rotation is here, in order: read the token; refuse it if unknown, another client's,
 * revoked, used (replay, below) or superseded (a newer authorization of the same user and
 * application issued another: only the latest is live, see TokenService.issueForNewGrant); use it
 * once with a conditional UPDATE (exactly one of any number of racing requests sees a row count of
 * 1); mint the successor pair in the same grant. One transaction; a refusal writes nothing.
 * Concurrent grants share the commit of that transaction (store/GroupCommit), each under its own
 * savepoint, and each answered only once the shared commit is durable.
 *
 * <p>On PostgreSQL the common case, a live token of this client issued since V22 (found by id), takes
 * one statement instead of a transaction of four (TokenStore.ROTATE_REFRESH_TOKENS: use and mint as
 * data-modifying CTEs, the same conditions; concurrent grants share one such statement, RotationBatches); only when it rotates nothing does the transaction above run, to refuse with the
 * reason (or, had the token become live meanwhile, which cannot happen, to rotate it after all).
 */
public final class RefreshTokenGrant {
    private final Jdbi jdbi;
    private final GroupCommit commits;
    private final TokenService tokens;
    private final Duration replayWindow;
    private final OperatorNotices notices;
    private final AuditLog audit;
    /** PostgreSQL: rotate a live token in one statement first. */
    private final boolean oneStatement;

    public RefreshTokenGrant(Jdbi jdbi, GroupCommit commits, Database.Dialect dialect, TokenService tokens, Duration replayWindow,
                             OperatorNotices notices, AuditLog audit) {
        this.jdbi = jdbi;
        this.commits = commits;
        this.oneStatement = dialect == Database.Dialect.POSTGRESQL;
        this.tokens = tokens;
        this.replayWindow = replayWindow;
        this.notices = notices;
        this.audit = audit;
    }

    public TokenResponse exchange(Application client, String refreshToken) {
        try {
            return use(client, refreshToken);
        } catch (Replayed r) {
            throw replayed(client, r.token);
        }
    }

    private TokenResponse use(Application client, String refreshToken) {
        if (refreshToken == null || refreshToken.isEmpty()) throw invalidRequest("refresh_token is required for grant_type refresh_token");
        if (refreshToken.length() > TokenService.MAX_TOKEN_LENGTH) throw invalidGrant("refresh token is unknown");

        TokenFormat.Presented presented = tokens.format().parse(refreshToken);
        if (presented instanceof TokenFormat.Foreign) throw invalidGrant("refresh token is unknown");
        if (oneStatement && presented instanceof TokenFormat.Selected selected) {
            Optional<TokenPair> rotated = tokens.rotateInOneStatement(selected, client.id());
            if (rotated.isPresent()) return TokenResponse.of(rotated.get());
        }
        // One transaction: read, the guard clauses (a refusal writes nothing), use, mint. Concurrent
        // grants share its commit (store/GroupCommit), each under a savepoint of its own: on H2 a
        // durable commit (one chunk written) was most of a grant's cost.
        Optional<TokenPair> pair = commits.inTransaction(h -> {
            TokenStore store = new TokenStore(h);
            RefreshTokenRow token = store.refreshToken(presented)
                    .orElseThrow(() -> invalidGrant("refresh token is unknown"));
            if (token.applicationId() != client.id()) throw invalidGrant("refresh token was issued to another client");
            if (token.revokedAt() != null) throw invalidGrant("refresh token was revoked at " + token.revokedAt());
            if (token.usedAt() != null) throw new Replayed(token);
            if (token.supersededAt() != null) {
                throw invalidGrant("refresh token was superseded at " + token.supersededAt()
                        + ": a newer authorization issued another one (only the latest is live)");
            }
            Instant now = tokens.now();
            if (store.useRefreshToken(token.id(), now) != 1) return Optional.<TokenPair>empty();   // a racing request won
            return Optional.of(tokens.mintSuccessor(store, token, now));
        });
        if (pair.isPresent()) return TokenResponse.of(pair.get());
        // Another request used it between our read and our update: describe what it is now.
        RefreshTokenRow now = jdbi.withHandle(h -> new TokenStore(h).refreshToken(presented)).orElseThrow();
        throw now.usedAt() != null ? replayed(client, now) : invalidGrant("refresh token is no longer live");
    }

    /** Leaves the reading transaction (which wrote nothing) so the replay rule can act in its own. */
    private static final class Replayed extends RuntimeException {
        final RefreshTokenRow token;

        Replayed(RefreshTokenRow token) {
            super(null, null, false, false);
            this.token = token;
        }
    }

    /**
     * A used token again: inside the window a retry race (refused), after it a theft (the grant
     * ends). The operator hears of it once, when this replay ended tokens that were still live: a
     * notice in the revoking transaction, an audit line once it has committed.
     */
    private OAuthError replayed(Application client, RefreshTokenRow token) {
        String used = "refresh token was already used at " + token.usedAt() + "; a newer one was issued";
        Instant now = tokens.now();
        Duration since = Duration.between(token.usedAt(), now);
        if (since.compareTo(replayWindow) <= 0) return invalidGrant(used);
        int revoked = jdbi.inTransaction(h -> {
            int n = tokens.revokeGrant(h, token.grantId());
            if (n > 0) notices.grantRevoked(h, token.grantId(), token.userId(), token.applicationId(), "refresh token replay", now);
            return n;
        });
        if (revoked > 0) {
            audit.record(AuditLog.Event.REFRESH_TOKEN_REPLAYED, "grant_id", token.grantId(), "user_id", token.userId(),
                    "application_id", token.applicationId(), "client_id", client.clientId(), "used_at", token.usedAt().toString(),
                    "presented_after_seconds", since.toSeconds(), "tokens_revoked", revoked);
        }
        return invalidGrant(used + ". Presented again " + since.toSeconds()
                + " s later, it is treated as stolen: every token of this authorization is now revoked");
    }
}
