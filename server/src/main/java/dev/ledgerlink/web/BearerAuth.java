package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;

/** Authorization: Bearer on API routes; 401 with WWW-Authenticate for a missing, unknown, expired or revoked token. */
public final class BearerAuth {
    private static final String PRINCIPAL = "ledgerlink.principal";
    private final AccessTokenVerifier verifier;

    public BearerAuth(AccessTokenVerifier verifier) {
        this.verifier = verifier;
    }

    public TokenPrincipal require(Context ctx) {
        if (!BearerHeader.present(ctx)) throw ServiceException.unauthorized("An access token is required (Authorization: Bearer <token>).");
        String token = BearerHeader.credential(ctx);
        if (token == null) throw ServiceException.unauthorized("The Authorization header must use the Bearer scheme.");
        TokenPrincipal principal = verifier.verify(token)
                .orElseThrow(() -> ServiceException.unauthorized("The access token is unknown, expired or revoked."));
        ctx.attribute(PRINCIPAL, principal);   // development mode's journal names the token's application
        return principal;
    }

    /** The principal of this request's access token, once {@link #require} accepted it; else null. */
    static TokenPrincipal principalOf(Context ctx) {
        return ctx.attribute(PRINCIPAL);
    }
}
