package dev.ledgerlink.tracing;

import dev.ledgerlink.config.BuildInfo;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.config.TracingSettings;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The process's traces: the one place that sets up the OpenTelemetry SDK (when tracing.otlp-endpoint
 * is set: an OTLP/HTTP exporter behind a batch processor, resource {@code service.name=ledgerlink})
 * and that names spans and their attributes ({@link SpanNames}). Off, every method answers a shared
 * do-nothing span and nothing is recorded: the cost of a request is a null check. Webhooks carry a
 * W3C traceparent either way ({@link #attempt}).
 *
 * <p>The parent of a request's span is the caller's traceparent; token grants and publishes are
 * children of their request's span (the current context, on the request's thread). A publish keeps
 * its context with its event ({@link PublishSpan#toStore}), and every attempt to deliver it, however
 * much later and on whichever node, is a child of that: one trace from the publisher to the receiver.
 */
public final class Tracing implements AutoCloseable {
    /** Tracing off: no SDK, nothing recorded; webhooks still get their traceparent. */
    public static final Tracing OFF = new Tracing(null, TracerProvider.noop().get(SpanNames.INSTRUMENTATION));

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final AttributeKey<String> SERVICE_VERSION = AttributeKey.stringKey("service.version");

    private final SdkTracerProvider provider;
    private final Tracer tracer;

    private Tracing(SdkTracerProvider provider, Tracer tracer) {
        this.provider = provider;
        this.tracer = tracer;
    }

    /** Tracing as the settings say: {@link #OFF} without tracing.otlp-endpoint. The caller closes it (last: it sends what is left). */
    public static Tracing from(Settings settings) {
        TracingSettings t = TracingSettings.from(settings);
        if (!t.on()) return OFF;
        SdkLogs.forward();
        BuildInfo build = BuildInfo.current();
        var ours = Resource.builder().put(SERVICE_NAME, SpanNames.SERVICE);
        if (build.known()) ours.put(SERVICE_VERSION, build.version());
        var exporter = OtlpHttpSpanExporter.builder().setEndpoint(t.tracesUri().orElseThrow().toString()).build();
        var provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(ours.build()))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setScheduleDelay(t.exportInterval()).build())
                .build();
        return new Tracing(provider, build.known() ? provider.get(SpanNames.INSTRUMENTATION, build.version()) : provider.get(SpanNames.INSTRUMENTATION));
    }

    /** Whether spans are recorded and exported. */
    public boolean on() {
        return provider != null;
    }

    /**
     * The span of one HTTP request, current on the calling thread until {@link RequestSpan#end} (which
     * must run on that thread); its parent is the caller's traceparent, read through {@code header}.
     */
    public RequestSpan request(String method, String path, UnaryOperator<String> header) {
        if (!on()) return RequestSpan.NONE;
        TraceHeaders caller = TraceHeaders.received(header.apply(TraceHeaders.TRACEPARENT), header.apply(TraceHeaders.TRACESTATE));
        Span span = tracer.spanBuilder(method)
                .setSpanKind(SpanKind.SERVER)
                .setParent(caller == null ? Context.root() : caller.asParent())
                .setAttribute(SpanNames.HTTP_METHOD, method)
                .setAttribute(SpanNames.URL_PATH, path)
                .startSpan();
        return new RequestSpan(span, method, span.makeCurrent());
    }

    /** A token grant of {@code grantType} (as sent: recorded only when it is one the server knows), a child of the current span. */
    public GrantSpan grant(String grantType) {
        if (!on()) return GrantSpan.NONE;
        return new GrantSpan(tracer.spanBuilder(SpanNames.GRANT)
                .setAttribute(SpanNames.GRANT_TYPE, GrantSpan.known(grantType))
                .startSpan());
    }

    /**
     * A publish, a child of the current span (its request's) or, with none (the Java API), of
     * {@code caller}: the traceparent the publisher sent, or null. Off, the caller's context is what
     * the event keeps, so its deliveries still continue the publisher's trace.
     */
    public PublishSpan publish(TraceHeaders caller) {
        if (!on()) return caller == null ? PublishSpan.NONE : new PublishSpan(null, caller);
        Context current = Context.current();
        Context parent = Span.fromContext(current).getSpanContext().isValid() || caller == null ? current : caller.asParent();
        Span span = tracer.spanBuilder(SpanNames.PUBLISH)
                .setSpanKind(SpanKind.PRODUCER)
                .setParent(parent)
                .startSpan();
        return new PublishSpan(span, TraceHeaders.of(span.getSpanContext()));
    }

    /**
     * One attempt to send a webhook, a child of the context its event kept ({@code published}, null
     * for a verification request or an event published without one: a new trace). Its
     * {@link AttemptSpan#headers} go out with the request. Off: the published context unchanged,
     * or a new random one.
     */
    public AttemptSpan attempt(TraceHeaders published, long deliveryId, long callbackId, Long eventId, int attempt) {
        if (!on()) return new AttemptSpan(null, published != null ? published : TraceHeaders.newTrace());
        var builder = tracer.spanBuilder(SpanNames.ATTEMPT)
                .setSpanKind(SpanKind.CLIENT)
                .setParent(published == null ? Context.root() : published.asParent())
                .setAttribute(SpanNames.DELIVERY_ID, deliveryId)
                .setAttribute(SpanNames.CALLBACK_ID, callbackId)
                .setAttribute(SpanNames.ATTEMPT_NUMBER, attempt);
        if (eventId != null) builder.setAttribute(SpanNames.EVENT_ID, eventId);
        Span span = builder.startSpan();
        return new AttemptSpan(span, TraceHeaders.of(span.getSpanContext()));
    }

    /** Sends the spans still waiting and stops the exporter (at most 10 s). */
    @Override
    public void close() {
        if (provider != null) provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
