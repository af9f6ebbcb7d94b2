package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.notifications.OperatorNotices;
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
 * <p>Here are the guards, in order, and the replay rule: a token is refused if unknown, another
 * client's, revoked, used (replay, above) or superseded (a newer authorization of the same user and
 * application issued another: only the latest is live, see TokenService.issueForNewGrant). How the
 * token is used once and its successor pair minted in the same grant, with exactly one winner among
 * racing requests and nothing written by a refusal, is {@link RefreshRotation}'s (one transaction
 * sharing its commit on H2, one statement for a group of grants on PostgreSQL).
 */
public final class RefreshTokenGrant {
    private final Jdbi jdbi;
    private final RefreshRotation rotation;
    private final TokenService tokens;
    private final Duration replayWindow;
    private final OperatorNotices notices;
    private final AuditLog audit;

    RefreshTokenGrant(Jdbi jdbi, RefreshRotation rotation, TokenService tokens, Duration replayWindow,
                      OperatorNotices notices, AuditLog audit) {
        this.jdbi = jdbi;
        this.rotation = rotation;
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
        Optional<TokenPair> pair = rotation.rotate(presented, client.id(), RefreshTokenGrant::admit);
        if (pair.isPresent()) return TokenResponse.of(pair.get());
        // Another request used it between our read and our update: describe what it is now.
        RefreshTokenRow now = jdbi.withHandle(h -> new TokenStore(h).refreshToken(presented)).orElseThrow();
        throw now.usedAt() != null ? replayed(client, now) : invalidGrant("refresh token is no longer live");
    }

    /** The guards, in the rotation's transaction: the token may rotate, or the refusal (a refusal writes nothing). */
    private static RefreshTokenRow admit(Optional<RefreshTokenRow> found, long clientId) {
        RefreshTokenRow token = found.orElseThrow(() -> invalidGrant("refresh token is unknown"));
        if (token.applicationId() != clientId) throw invalidGrant("refresh token was issued to another client");
        if (token.revokedAt() != null) throw invalidGrant("refresh token was revoked at " + token.revokedAt());
        if (token.usedAt() != null) throw new Replayed(token);
        if (token.supersededAt() != null) {
            throw invalidGrant("refresh token was superseded at " + token.supersededAt()
                    + ": a newer authorization issued another one (only the latest is live)");
        }
        return token;
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
