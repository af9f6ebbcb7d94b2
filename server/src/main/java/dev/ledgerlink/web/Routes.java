package dev.ledgerlink.web;

import dev.ledgerlink.Services;
import io.javalin.config.RoutesConfig;
import java.util.List;

/** The whole HTTP surface in one table, to be read beside interface.md. */
final class Routes {
    private Routes() {}

    static void register(RoutesConfig r, Services s) {
        // API conventions (Api-Version) on the API paths; the token endpoints follow OAuth instead.
        WebServer.apiConventions(r, List.of("/events/*", "/auth/api/*"));

        var health = new HealthHandlers(s.database(), s.metrics());
        r.get("/healthz", health::alive);
        r.get("/readyz", health::ready);
        r.get("/metrics", health::prometheus);

        // Bearer authentication of the API routes (oauth.TokenService verifies; one indexed query).
        BearerAuth bearer = new BearerAuth(s.accessTokens());

        var identity = new IdentityHandler(bearer, s.users(), s.accounts());
        r.get("/auth/api/v1/users/me", identity::me);
    }
}
