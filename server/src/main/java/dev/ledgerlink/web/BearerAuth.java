package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;

/** Authorization: Bearer on API routes; 401 with WWW-Authenticate for a missing, unknown, expired or revoked token. */
public final class BearerAuth {
    private final AccessTokenVerifier verifier;

    public BearerAuth(AccessTokenVerifier verifier) {
        this.verifier = verifier;
    }

    public TokenPrincipal require(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank()) throw ServiceException.unauthorized("An access token is required (Authorization: Bearer <token>).");
        if (header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw ServiceException.unauthorized("The Authorization header must use the Bearer scheme.");
        }
        String token = header.substring(7).trim();
        return verifier.verify(token)
                .orElseThrow(() -> ServiceException.unauthorized("The access token is unknown, expired or revoked."));
    }
}
