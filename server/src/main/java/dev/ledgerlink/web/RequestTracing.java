package dev.ledgerlink.web;

import dev.ledgerlink.tracing.RequestSpan;
import dev.ledgerlink.tracing.Tracing;
import io.javalin.http.Context;
import java.util.Set;
import org.slf4j.MDC;

/**
 * A span per API request (tracing/Tracing#request): started before every other handler, current on
 * the request's thread while it is handled (token grants and publishes are its children), ended by
 * the request logger once the response is written, on the same thread. Health checks and metrics
 * scrapes are left out: they say nothing about a delivery and would fill the traces every few seconds.
 * The request's log lines carry its trace id ({@code trace_id}, in log.format=json), to go from a
 * log line to its trace. Tracing off, nothing is stored on the request.
 */
final class RequestTracing {
    private static final String ATTRIBUTE = "ledgerlink.request-span";
    private static final String TRACE_ID = "trace_id";
    private static final Set<String> UNTRACED = Set.of("/healthz", "/readyz", "/metrics");

    private RequestTracing() {}

    static void start(Context ctx, Tracing tracing) {
        if (!tracing.on() || UNTRACED.contains(ctx.path())) return;
        RequestSpan span = tracing.request(ctx.method().name(), ctx.path(), ctx::header);
        ctx.attribute(ATTRIBUTE, span);
        MDC.put(TRACE_ID, span.traceId());
    }

    /** {@code route}: the matched route's pattern, null when none matched. */
    static void end(Context ctx, String route) {
        RequestSpan span = ctx.attribute(ATTRIBUTE);
        if (span == null) return;
        span.end(route, ctx.statusCode(), RequestIds.of(ctx));
        MDC.remove(TRACE_ID);
    }
}
