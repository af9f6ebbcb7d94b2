package dev.ledgerlink.web;

import dev.ledgerlink.Services;
import dev.ledgerlink.events.OperatorKey;
import io.javalin.config.RoutesConfig;
import java.util.List;

/** The whole HTTP surface in one table, to be read beside interface.md. */
final class Routes {
    private Routes() {}

    /** {@code onStop} runs a task when the server begins to stop (long-lived streams end then, so stopping never waits on them). */
    static void register(RoutesConfig r, Services s, OperatorKey operatorKey, Draining draining, java.util.function.Consumer<Runnable> onStop) {
        // Development mode only, first of all: fault rules and the journal around the routes applications call (docs/sandbox.md).
        boolean devMode = s.settings().flag(dev.ledgerlink.config.Setting.DEV);
        if (devMode) SandboxHooks.register(r, s);

        // API conventions (Api-Version) on the API paths; the token endpoints follow OAuth instead.
        WebServer.apiConventions(r, List.of("/events/*", "/auth/api/*"));

        // Health and metrics, unless management.port serves them apart (ManagementServer).
        if (!ManagementServer.enabled(s.settings())) HealthHandlers.register(r, s, draining);
        r.get("/openapi.json", OpenApiDocument::serve);   // docs/api.md: every route below is in it

        // Who is asking: the peer, or the client a trusted proxy names (rate limits and audit lines of both sign-in forms).
        ClientAddress clientAddress = ClientAddress.trusting(s.settings().get(dev.ledgerlink.config.Setting.TRUSTED_PROXIES));

        // Bearer authentication of the API routes (oauth.TokenService verifies; one indexed query).
        BearerAuth bearer = new BearerAuth(s.accessTokens());

        var identity = new IdentityHandler(bearer, s.users(), s.accounts());
        r.get("/auth/api/v1/users/me", identity::me);

        // OAuth 2.0: the authorization page (served at {auth_url}), token, revocation, discovery.
        var authorize = new AuthorizePage(s.oauth(), s.settings(), clientAddress);
        r.get("/oauth/authorize", authorize::show);
        r.post("/oauth/authorize", authorize::submit);
        // The signed-in user's account page (same session): connected applications, the second factor; and its JSON API.
        var account = new AccountPage(s.oauth(), s.users(), s.settings(), clientAddress);
        r.get(AccountPage.PATH, account::show);
        r.post(AccountPage.PATH, account::signIn);
        r.post(AccountPage.PATH + "/sign-out", account::signOut);
        r.post(AccountPage.PATH + "/connected-apps/{client_id}/disconnect", account::disconnect);
        r.post(AccountPage.PATH + "/second-factor/setup", account::setUpSecondFactor);
        r.post(AccountPage.PATH + "/second-factor/confirm", account::confirmSecondFactor);
        r.post(AccountPage.PATH + "/second-factor/recovery-codes", account::replaceRecoveryCodes);
        r.post(AccountPage.PATH + "/second-factor/remove", account::removeSecondFactor);
        var accountApi = new AccountApi(s.oauth(), clientAddress);
        r.get(AccountPage.PATH + "/api/connected-apps", accountApi::connectedApps);
        r.delete(AccountPage.PATH + "/api/connected-apps/{client_id}", accountApi::disconnect);
        var o = s.oauth();
        // One operator key for every internal route (events, admin, introspection by the platform's services).
        var operator = new OperatorAuth(operatorKey);
        var tokens = new TokenHandlers(o.clients(), o.authorizationCodeGrant(), o.refreshTokenGrant(), o.revocation(),
                o.introspection(), operator, s.tracing());
        r.post("/auth/oauth/token", tokens::token);
        r.post("/auth/oauth/revoke", tokens::revoke);
        r.post("/auth/oauth/introspect", tokens::introspect);
        r.exception(dev.ledgerlink.oauth.OAuthError.class, TokenHandlers::renderError);
        r.get("/.well-known/oauth-authorization-server", new DiscoveryHandler(s.settings())::metadata);

        // Callbacks (interface.md "Callbacks"; decisions.md "Callbacks").
        var callbacks = new CallbackHandlers(s.callbacks(), bearer);
        String cb = "/events/account/{account_id}/events/callbacks";
        r.post(cb, callbacks::register);
        r.get(cb, callbacks::list);
        r.get(cb + "/{callback_id}", callbacks::get);
        r.put(cb + "/{callback_id}", callbacks::put);
        r.delete(cb + "/{callback_id}", callbacks::delete);
        var deliveries = new DeliveryHandlers(s.callbackHistory(), bearer);
        r.get(cb + "/{callback_id}/deliveries", deliveries::history);
        r.post(cb + "/{callback_id}/recover", deliveries::recover);

        // Event publishing for internal services (operator key, not OAuth).
        var events = new EventHandlers(s.events(), operator);
        r.post("/internal/v1/events", events::publish);

        // Development mode only: test events with the application's own token (docs/sandbox.md).
        if (devMode) {
            var testEvents = new TestEventHandler(new dev.ledgerlink.sandbox.TestEvents(s.events(), s.accounts(), s.deliveries()), bearer, operator);
            r.post("/events/account/{account_id}/events/test", testEvents::send);
            // The sandbox's controls (operator key): what a test otherwise needs the CLI for (tokens, test events
            // for an account), fault rules, the request journal, reset.
            r.post("/sandbox/v1/tokens", new SandboxTokensHandler(o.operatorGrant(), operator)::issue);
            r.post("/sandbox/v1/events", testEvents::sendAsOperator);
            var sandbox = new SandboxHandlers(s.faults(), s.journal(), operator);
            r.post("/sandbox/v1/faults", sandbox::addFault);
            r.get("/sandbox/v1/faults", sandbox::listFaults);
            r.delete("/sandbox/v1/faults", sandbox::clearFaults);
            r.get("/sandbox/v1/requests", sandbox::requests);
            var reset = new SandboxResetHandler(s.sandboxReset(), operator);
            r.post("/sandbox/v1/reset", reset::reset);
            // The sandbox's controls (operator key): its movable clock (docs/sandbox.md "Clock").
            var sandboxClock = new SandboxClockHandlers(new dev.ledgerlink.sandbox.SandboxClock(s.clock()), operator);
            r.get("/sandbox/v1/clock", sandboxClock::get);
            r.post("/sandbox/v1/clock", sandboxClock::move);
            r.delete("/sandbox/v1/clock", sandboxClock::reset);
        }

        // The admin API (operator key): accounts, users, memberships, applications, callbacks, deliveries, grants.
        var admin = new AdminHandlers(s, operator);
        String a = "/internal/v1/admin";
        r.get(a + "/accounts", admin.op(admin::accounts));
        r.get(a + "/accounts/{account_id}", admin.op(admin::account));
        r.get(a + "/users", admin.op(admin::users));
        r.get(a + "/users/{user_id}", admin.op(admin::user));
        r.get(a + "/memberships", admin.op(admin::memberships));
        r.get(a + "/applications", admin.op(admin::applications));
        r.post(a + "/applications", admin.op(admin::createApplication));
        r.get(a + "/applications/{id}", admin.op(admin::application));
        r.post(a + "/applications/{id}/rotate-secret", admin.op(admin::rotateSecret));
        r.post(a + "/applications/{id}/retire-secret", admin.op(admin::retireSecret));
        r.get(a + "/callbacks", admin.op(admin::callbacks));
        r.get(a + "/callbacks/{callback_id}", admin.op(admin::callback));
        r.patch(a + "/callbacks/{callback_id}", admin.op(admin::changeCallback));
        r.post(a + "/callbacks/{callback_id}/disable", admin.op(admin::disableCallback));
        r.post(a + "/callbacks/{callback_id}/enable", admin.op(admin::enableCallback));
        r.post(a + "/callbacks/{callback_id}/recover", admin.op(admin::recover));
        r.get(a + "/deliveries", admin.op(admin::deliveries));
        r.post(a + "/deliveries/{delivery_id}/redeliver", admin.op(admin::redeliver));
        r.get(a + "/grants", admin.op(admin::grants));
        r.get(a + "/grants/{grant_id}", admin.op(admin::grant));
        r.post(a + "/grants/{grant_id}/revoke", admin.op(admin::revokeGrant));
        r.get(a + "/users/{user_id}/connected-apps", admin.op(admin::connectedApps));
        r.post(a + "/users/{user_id}/connected-apps/{client_id}/disconnect", admin.op(admin::disconnectApp));
        r.post(a + "/users/{user_id}/reset-second-factor", admin.op(admin::resetSecondFactor));

        // The developer console (development mode, or console.enabled): web/console/ConsoleRoutes.
        dev.ledgerlink.web.console.ConsoleRoutes.register(r, s, operatorKey, clientAddress, onStop);
    }
}
