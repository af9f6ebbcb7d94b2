package dev.ledgerlink.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The span of one publish, and the trace context its event keeps for its deliveries
 * ({@link #toStore}): the publish span's when tracing is on, else the publisher's own traceparent.
 * Exactly one of {@link #published} and {@link #failed} ends it.
 */
public final class PublishSpan {
    static final PublishSpan NONE = new PublishSpan(null, null);

    private final Span span;
    private final TraceHeaders toStore;

    PublishSpan(Span span, TraceHeaders toStore) {
        this.span = span;
        this.toStore = toStore;
    }

    /** What the event stores (events.trace_parent, trace_state); null: nothing, its deliveries start traces of their own. */
    public TraceHeaders toStore() {
        return toStore;
    }

    /** The event is durable (or was already, for a repeated Idempotency-Key): which one, and how many deliveries it queued. */
    public void published(long eventId, String eventName, String accountId, int deliveries) {
        if (span == null) return;
        span.setAttribute(SpanNames.EVENT_ID, eventId);
        span.setAttribute(SpanNames.EVENT_NAME, eventName);
        span.setAttribute(SpanNames.ACCOUNT_ID, accountId);
        span.setAttribute(SpanNames.DELIVERIES, deliveries);
        span.end();
    }

    /** Refused or failed: a refusal (validation, unknown account) is the publisher's mistake; anything else an error. */
    public void failed(RuntimeException e, boolean refused) {
        if (span == null) return;
        span.setAttribute(SpanNames.ERROR_TYPE, e.getClass().getName());
        if (!refused) span.setStatus(StatusCode.ERROR);
        span.end();
    }
}
