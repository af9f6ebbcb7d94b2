package dev.ledgerlink.web;

import dev.ledgerlink.Services;
import dev.ledgerlink.oauth.TokenFormat;
import dev.ledgerlink.oauth.TokenPrincipal;
import dev.ledgerlink.sandbox.FaultRoute;
import dev.ledgerlink.sandbox.Faults;
import dev.ledgerlink.sandbox.RequestJournal;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Development mode around the routes an application calls (the authorization page, token, revoke,
 * introspect, identity, callbacks): before the route, the fault rules (sandbox.Faults); after it, one
 * entry in the request journal (sandbox.RequestJournal), queued, written off the request's path.
 * Registered first, so that even a request refused by an earlier check is journaled.
 *
 * <p>What these hooks may ask the database, so that development mode answers a database outage as
 * production does (decisions.md, "Durability and failure"; DatabaseOutageTest): nothing after the
 * route (the journal's writer names the application of a refused token, later); before it, only
 * what a rule that matches needs (a {@code client_id} rule on identity or callbacks looks up the
 * token's application; a match is taken in one statement). A statement that fails there fails the
 * request with the documented 503 at once, in place of the route, which would wait for the same
 * database again.
 */
final class SandboxHooks {
    private static final String ROUTE = "ledgerlink.app-route";
    private static final String STARTED = "ledgerlink.app-call-started";

    private final Faults faults;
    private final RequestJournal journal;
    private final Services services;

    private SandboxHooks(Services services) {
        this.services = services;
        this.faults = services.faults();
        this.journal = services.journal();
    }

    static void register(RoutesConfig r, Services s) {
        var hooks = new SandboxHooks(s);
        r.before(hooks::before);
        r.after(hooks::after);
        r.exception(SandboxFaultAnswer.class, SandboxFaultAnswer::render);
    }

    private void before(Context ctx) {
        FaultRoute route = AppCalls.routeOf(ctx.path());
        if (route == null) return;
        ctx.attribute(ROUTE, route);
        ctx.attribute(STARTED, System.nanoTime());
        faults.take(route, new Faults.Request() {
            @Override
            public String clientId() {
                return clientIdOf(ctx, route);
            }

            @Override
            public String grantType() {
                return route == FaultRoute.TOKEN ? AppCalls.grantType(ctx) : null;
            }
        }).ifPresent(rule -> SandboxFaultAnswer.apply(route, rule));
    }

    private void after(Context ctx) {
        FaultRoute route = ctx.attribute(ROUTE);
        if (route == null) return;
        Long started = ctx.attribute(STARTED);
        int ms = (int) TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        String error = ErrorNote.error(ctx);
        String description = ErrorNote.description(ctx);
        if (error == null && route == FaultRoute.AUTHORIZE) {
            // a refusal the page sends back to the application: its error and description, nothing else of the address
            String location = ctx.res().getHeader("Location");
            if (location != null) {
                error = queryParameter(location, "error");
                if (error != null) description = queryParameter(location, "error_description");
            }
        }
        TokenPrincipal principal = BearerAuth.principalOf(ctx);
        Long application = principal != null ? Long.valueOf(principal.applicationId()) : null;
        TokenFormat.Presented refused = principal == null && namesClientByToken(route) ? presentedToken(ctx) : null;
        journal.record(new RequestJournal.Call(services.clock().instant(), AppCalls.declaredClientId(ctx, route),
                application, refused, ctx.method().name(), ctx.path(), ctx.statusCode(), error, description, ms));
    }

    /** The client_id a rule matches: declared by the request, else the application of its access token. */
    private String clientIdOf(Context ctx, FaultRoute route) {
        String declared = AppCalls.declaredClientId(ctx, route);
        if (declared != null) return declared;
        Long application = tokenApplication(ctx, route);
        return application == null ? null : services.applications().find(application).map(a -> a.clientId()).orElse(null);
    }

    /**
     * On identity and callbacks, the application the request's access token was issued to, accepted or
     * not: an expired or revoked token still names its application. One statement, made only for a
     * rule that names a client_id.
     */
    private Long tokenApplication(Context ctx, FaultRoute route) {
        if (!namesClientByToken(route)) return null;
        TokenFormat.Presented token = presentedToken(ctx);
        return token == null ? null : services.tokens().issuedTo(token).orElse(null);
    }

    /** The routes whose client is the application of their access token, not a client_id the request declares. */
    private static boolean namesClientByToken(FaultRoute route) {
        return route == FaultRoute.IDENTITY || route == FaultRoute.CALLBACKS;
    }

    /** The request's bearer token, parsed (its hash, not the secret), or null when it sent none. */
    private TokenFormat.Presented presentedToken(Context ctx) {
        String token = BearerHeader.credential(ctx);
        return token == null ? null : services.tokens().presented(token);
    }

    private static String queryParameter(String location, String name) {
        try {
            String query = URI.create(location).getRawQuery();
            if (query == null) return null;
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).equals(name)) {
                    return java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
                }
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        return null;
    }
}
