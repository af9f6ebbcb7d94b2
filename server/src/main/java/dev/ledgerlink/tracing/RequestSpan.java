package dev.ledgerlink.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/** The span of one HTTP request, current on its thread from {@link Tracing#request} until {@link #end}. */
public final class RequestSpan {
    static final RequestSpan NONE = new RequestSpan(null, null, null);

    private final Span span;
    private final String method;
    private final Scope scope;
    private final Thread thread;

    RequestSpan(Span span, String method, Scope scope) {
        this.span = span;
        this.method = method;
        this.scope = scope;
        this.thread = Thread.currentThread();
    }

    /** The trace's id (32 hex digits), for the request's log lines. */
    public String traceId() {
        return span.getSpanContext().getTraceId();
    }

    /**
     * Ends the span once the response is written, on the thread that started it: named after the
     * matched route ({@code null}: none matched, the method alone), with the status and request id.
     */
    public void end(String route, int status, String requestId) {
        if (span == null) return;
        // Javalin runs a request's handlers and its request logger on one thread; should it ever not,
        // closing here would reset another thread's context, so the span is only ended.
        if (Thread.currentThread() == thread) scope.close();
        if (route != null) {
            span.updateName(method + " " + route);
            span.setAttribute(SpanNames.HTTP_ROUTE, route);
        }
        span.setAttribute(SpanNames.HTTP_STATUS, status);
        if (requestId != null) span.setAttribute(SpanNames.REQUEST_ID, requestId);
        if (status >= 500) span.setStatus(StatusCode.ERROR);
        span.end();
    }
}
