package dev.ledgerlink.web;

import dev.ledgerlink.tracing.RequestSpan;
import dev.ledgerlink.tracing.Tracing;
import io.javalin.http.Context;
import java.util.Set;

/**
 * A span per API request (tracing/Tracing#request): started before every other handler, current on
 * the request's thread while it is handled (token grants and publishes are its children), ended by
 * the request logger once the response is written, on the same thread. Health checks and metrics
 * scrapes are left out: they say nothing about a delivery and would fill the traces every few seconds.
 * Tracing off, nothing is stored on the request.
 */
final class RequestTracing {
    private static final String ATTRIBUTE = "ledgerlink.request-span";
    private static final Set<String> UNTRACED = Set.of("/healthz", "/readyz", "/metrics");

    private RequestTracing() {}

    static void start(Context ctx, Tracing tracing) {
        if (!tracing.on() || UNTRACED.contains(ctx.path())) return;
        ctx.attribute(ATTRIBUTE, tracing.request(ctx.method().name(), ctx.path(), ctx::header));
    }

    /** {@code route}: the matched route's pattern, null when none matched. */
    static void end(Context ctx, String route) {
        RequestSpan span = ctx.attribute(ATTRIBUTE);
        if (span != null) span.end(route, ctx.statusCode(), RequestIds.of(ctx));
    }
}
