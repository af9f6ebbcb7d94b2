package dev.ledgerlink.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The span of one attempt to send a webhook, and the trace context the request carries
 * ({@link #headers}: traceparent, and tracestate when the publisher sent one). {@link #ended} ends it.
 */
public final class AttemptSpan {
    private final Span span;
    private final TraceHeaders headers;

    AttemptSpan(Span span, TraceHeaders headers) {
        this.span = span;
        this.headers = headers;
    }

    /** The W3C headers of the webhook request. */
    public TraceHeaders headers() {
        return headers;
    }

    /**
     * The attempt's outcome: the receiver's status (null: no response), how long it took, and why it
     * failed (null when it succeeded).
     */
    public void ended(Integer status, long durationMs, String error) {
        if (span == null) return;
        if (status != null) span.setAttribute(SpanNames.HTTP_STATUS, status.longValue());
        span.setAttribute(SpanNames.DURATION_MS, durationMs);
        if (error != null) {
            span.setAttribute(SpanNames.ERROR, error);
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }
}
