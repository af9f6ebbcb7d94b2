package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.OAuthError;
import dev.ledgerlink.sandbox.FaultRoute;
import dev.ledgerlink.sandbox.FaultRule;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Map;

/**
 * The answer a fault rule gives instead of the route's own, in that route's documented error shape:
 * RFC 6749 §5.2 JSON on the token endpoints, the API error body on identity and callbacks, the
 * page's error page on the authorization page; a 503 or 429 with Retry-After. Every description
 * says that a sandbox rule produced it, so no one mistakes it for a real outage.
 */
final class SandboxFaultAnswer extends RuntimeException {
    private final FaultRoute route;
    private final FaultRule rule;

    private SandboxFaultAnswer(FaultRoute route, FaultRule rule) {
        super(null, null, false, false);
        this.route = route;
        this.rule = rule;
    }

    /** Applies a taken rule: waits for a latency rule, else throws the refusal the route renders. */
    static void apply(FaultRoute route, FaultRule rule) {
        FaultRule.Effect e = rule.effect();
        if (e.latencyMs() != null) {
            try {
                Thread.sleep(e.latencyMs());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (e.error() != null) {
            // Before the grant runs: the code or refresh token presented is not used and stays valid.
            throw OAuthError.invalidGrant("sandbox fault rule " + rule.id() + " refused this grant (POST /sandbox/v1/faults); "
                    + "the code or refresh token was not used");
        }
        Duration retryAfter = Duration.ofSeconds(e.retryAfter());
        String description = (e.status() == 503 ? "Unavailable" : "Too many requests") + ": sandbox fault rule " + rule.id()
                + " produced this answer (POST /sandbox/v1/faults); retry after " + e.retryAfter() + " s.";
        switch (route) {
            case IDENTITY, CALLBACKS -> throw e.status() == 503
                    ? ServiceException.unavailable(description, retryAfter)
                    : ServiceException.throttled(description, retryAfter);
            default -> throw new SandboxFaultAnswer(route, rule);
        }
    }

    /** Renders the status answers of the token endpoints and the authorization page. */
    static void render(SandboxFaultAnswer a, Context ctx) {
        FaultRule.Effect e = a.rule.effect();
        RetryAfterHeader.set(ctx, Duration.ofSeconds(e.retryAfter()));
        boolean unavailable = e.status() == 503;
        String description = "sandbox fault rule " + a.rule.id() + " produced this answer (POST /sandbox/v1/faults); retry after "
                + e.retryAfter() + " s";
        if (a.route == FaultRoute.AUTHORIZE) {
            AuthorizePage.unavailablePage(ctx, e.status(), unavailable ? "Temporarily unavailable" : "Too many requests",
                    "A sandbox fault rule (" + a.rule.id() + ") produced this answer. Retry after " + e.retryAfter() + " s.");
            return;
        }
        String error = unavailable ? "temporarily_unavailable" : "slow_down";
        TokenHandlers.noStore(ctx);
        ErrorNote.note(ctx, error, description);
        ctx.status(e.status()).json(Map.of("error", error, "error_description", description));
    }
}
