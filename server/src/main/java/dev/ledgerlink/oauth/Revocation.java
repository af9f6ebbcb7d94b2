package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.secrets.Hashes;
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

    /** {@code tokenTypeHint} only orders the lookups (RFC 7009 §2.1); an unknown hint is ignored. */
    public void revoke(Application client, String token, String tokenTypeHint) {
        if (token == null || token.isEmpty()) throw OAuthError.invalidRequest("token is required");
        if (token.length() > TokenService.MAX_TOKEN_LENGTH) return;
        byte[] hash = Hashes.sha256(token);
        boolean refreshFirst = "refresh_token".equals(tokenTypeHint);
        jdbi.useTransaction(h -> {
            HotTokenStore store = new HotTokenStore(h);
            if (refreshFirst) {
                if (!revokeRefresh(h, store, client, hash)) revokeAccess(h, store, client, hash);
            } else {
                if (!revokeAccess(h, store, client, hash)) revokeRefresh(h, store, client, hash);
            }
        });
    }

    private boolean revokeAccess(org.jdbi.v3.core.Handle h, HotTokenStore store, Application client, byte[] hash) {
        Optional<AccessTokenRow> row = store.accessToken(hash);
        if (row.isEmpty()) return false;
        if (row.get().applicationId() == client.id()) h.attach(TokenStore.class).revokeAccessToken(row.get().id(), tokens.now());
        return true;
    }

    private boolean revokeRefresh(org.jdbi.v3.core.Handle h, HotTokenStore store, Application client, byte[] hash) {
        Optional<RefreshTokenRow> row = store.refreshToken(hash);
        if (row.isEmpty()) return false;
        if (row.get().applicationId() == client.id()) tokens.revokeGrant(h, row.get().grantId());
        return true;
    }
}
