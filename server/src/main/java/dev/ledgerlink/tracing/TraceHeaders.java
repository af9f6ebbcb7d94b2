package dev.ledgerlink.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A W3C Trace Context as it travels in HTTP headers and as an event keeps it for its deliveries
 * (events.trace_parent, events.trace_state): {@code traceparent} (version 00, 55 characters) and
 * {@code tracestate} (null when none). Parsed and written by OpenTelemetry's W3C propagator, so a
 * value that is not valid W3C never gets stored or sent.
 */
public record TraceHeaders(String traceparent, String tracestate) {
    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";
    /** The column's width: a longer tracestate is dropped whole rather than cut in the middle of an entry. */
    static final int MAX_TRACESTATE = 512;

    /** What a caller sent, normalised; null when {@code traceparent} is absent or not valid W3C (the call then starts no trace of its own). */
    public static TraceHeaders received(String traceparent, String tracestate) {
        if (traceparent == null || traceparent.isBlank()) return null;
        SpanContext c = parse(traceparent, tracestate);
        return c.isValid() ? of(c) : null;
    }

    /** As stored with an event: values this class wrote itself; null when the event has none. */
    public static TraceHeaders stored(String traceparent, String tracestate) {
        return traceparent == null ? null : new TraceHeaders(traceparent, tracestate);
    }

    /** The 32 hex digits that name the trace. */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** A new trace: random ids, sampled (receivers whose sampler follows the caller's decision then record their side). */
    static TraceHeaders newTrace() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = r.nextLong();
            low = r.nextLong();
        } while (high == 0 && low == 0);
        long span;
        do {
            span = r.nextLong();
        } while (span == 0);
        return new TraceHeaders("00-" + hex(high) + hex(low) + "-" + hex(span) + "-01", null);
    }

    private static String hex(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(16 - h.length()) + h;
    }

    /** This context as the parent of a span (remote, as it came from another process or from the database). */
    Context asParent() {
        return Context.root().with(Span.wrap(parse(traceparent, tracestate)));
    }

    static TraceHeaders of(SpanContext c) {
        Map<String, String> out = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(Span.wrap(c)), out, Map::put);
        String state = out.get(TRACESTATE);
        return new TraceHeaders(out.get(TRACEPARENT), state == null || state.isEmpty() || state.length() > MAX_TRACESTATE ? null : state);
    }

    private static SpanContext parse(String traceparent, String tracestate) {
        Map<String, String> in = new HashMap<>(4);
        in.put(TRACEPARENT, traceparent.trim());
        if (tracestate != null) in.put(TRACESTATE, tracestate);
        return Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(), in, GETTER)).getSpanContext();
    }

    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return List.copyOf(carrier.keySet());
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
}
