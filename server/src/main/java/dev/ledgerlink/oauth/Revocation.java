package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Token revocation (RFC 7009), for a client already authenticated. Answers the same for any token
 * string, known or not, so it leaks nothing. A token of another application is left alone.
 * Revoking an access token ends that token; revoking a refresh token ends it and the access tokens
 * of the same authorization (RFC 7009 §2.1).
 */
public final class Revocation {
    private final Jdbi jdbi;
    private final TokenService tokens;

    public Revocation(Jdbi jdbi, TokenService tokens) {
        this.jdbi = jdbi;
        this.tokens = tokens;
    }

    /**
     * {@code tokenTypeHint} only orders the lookups of a token issued before V22 (RFC 7009 §2.1); a
     * newer token says its own kind. An unknown hint is ignored.
     */
    public void revoke(Application client, String token, String tokenTypeHint) {
        if (token == null || token.isEmpty()) throw OAuthError.invalidRequest("token is required");
        if (token.length() > TokenService.MAX_TOKEN_LENGTH) return;
        TokenFormat.Presented presented = tokens.format().parse(token);
        if (presented instanceof TokenFormat.Foreign) return;
        boolean refreshFirst = "refresh_token".equals(tokenTypeHint);
        jdbi.useTransaction(h -> {
            TokenStore store = new TokenStore(h);
            if (refreshFirst) {
                if (!revokeRefresh(h, store, client, presented)) revokeAccess(store, client, presented);
            } else {
                if (!revokeAccess(store, client, presented)) revokeRefresh(h, store, client, presented);
            }
        });
    }

    private boolean revokeAccess(TokenStore store, Application client, TokenFormat.Presented presented) {
        Optional<AccessTokenRow> row = store.accessToken(presented);
        if (row.isEmpty()) return false;
        if (row.get().applicationId() == client.id()) store.revokeAccessToken(row.get().id(), tokens.now());
        return true;
    }

    private boolean revokeRefresh(org.jdbi.v3.core.Handle h, TokenStore store, Application client, TokenFormat.Presented presented) {
        Optional<RefreshTokenRow> row = store.refreshToken(presented);
        if (row.isEmpty()) return false;
        if (row.get().applicationId() == client.id()) tokens.revokeGrant(h, row.get().grantId());
        return true;
    }
}
