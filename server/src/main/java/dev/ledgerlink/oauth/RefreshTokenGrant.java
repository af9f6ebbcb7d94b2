package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.secrets.Hashes;
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
 * <p>One read, then one transaction: lock the pair's slot, use the token with a conditional UPDATE
 * (exactly one of any number of racing requests sees a row count of 1), insert the successor pair.
 */
public final class RefreshTokenGrant {
    private final Jdbi jdbi;
    private final TokenService tokens;
    private final Duration replayWindow;

    public RefreshTokenGrant(Jdbi jdbi, TokenService tokens, Duration replayWindow) {
        this.jdbi = jdbi;
        this.tokens = tokens;
        this.replayWindow = replayWindow;
    }

    public TokenResponse exchange(Application client, String refreshToken) {
        if (refreshToken == null || refreshToken.isEmpty()) throw invalidRequest("refresh_token is required for grant_type refresh_token");
        if (refreshToken.length() > TokenService.MAX_TOKEN_LENGTH) throw invalidGrant("refresh token is unknown");

        RefreshTokenRow token = jdbi.withExtension(TokenStore.class, s -> s.refreshToken(Hashes.sha256Hex(refreshToken)))
                .orElseThrow(() -> invalidGrant("refresh token is unknown"));
        if (token.applicationId() != client.id()) throw invalidGrant("refresh token was issued to another client");
        if (token.revokedAt() != null) throw invalidGrant("refresh token was revoked at " + token.revokedAt());
        if (token.usedAt() != null) throw replayed(token);
        if (token.supersededAt() != null) {
            throw invalidGrant("refresh token was superseded at " + token.supersededAt()
                    + ": a newer authorization issued another one (only the latest is live)");
        }

        Optional<TokenPair> pair = jdbi.inTransaction(h -> tokens.issueForRefresh(h, token));
        if (pair.isEmpty()) {
            // Another request used it between our read and our update: describe what it is now.
            RefreshTokenRow now = jdbi.withExtension(TokenStore.class, s -> s.refreshToken(token.id())).orElse(token);
            throw now.usedAt() != null ? replayed(now) : invalidGrant("refresh token is no longer live");
        }
        return TokenResponse.of(pair.get());
    }

    /** A used token again: inside the window a retry race (refused), after it a theft (the grant ends). */
    private OAuthError replayed(RefreshTokenRow token) {
        String used = "refresh token was already used at " + token.usedAt() + "; a newer one was issued";
        Instant now = tokens.now();
        if (Duration.between(token.usedAt(), now).compareTo(replayWindow) <= 0) return invalidGrant(used);
        jdbi.useTransaction(h -> tokens.revokeGrant(h, token.grantId()));
        return invalidGrant(used + ". Presented again " + Duration.between(token.usedAt(), now).toSeconds()
                + " s later, it is treated as stolen: every token of this authorization is now revoked");
    }
}
