package dev.ledgerlink.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * An OpenTelemetry collector as far as traces go: a real HTTP server on loopback that accepts OTLP/HTTP
 * (POST /v1/traces, protobuf) the way a collector does, decodes each export with the OTLP protobuf
 * classes and keeps every span it got, with its resource. Anything else is a 404.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** One received span: ids in lower-case hex (parent "" for a root), attributes as text. */
    public record Span(String name, String kind, String traceId, String spanId, String parentSpanId, Map<String, String> attributes,
                       Map<String, String> resource, boolean error) {
        public String attribute(String key) {
            return attributes.get(key);
        }
    }

    private final Queue<Span> spans = new ConcurrentLinkedQueue<>();
    private final HttpServer server;

    public OtlpReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals("/v1/traces")) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            InputStream in = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) in = new GZIPInputStream(in);
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in.readAllBytes());
            for (ResourceSpans rs : request.getResourceSpansList()) {
                Map<String, String> resource = attributes(rs.getResource());
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (var s : ss.getSpansList()) {
                        spans.add(new Span(s.getName(), s.getKind().name(), hex(s.getTraceId().toByteArray()), hex(s.getSpanId().toByteArray()),
                                hex(s.getParentSpanId().toByteArray()), attributes(s.getAttributesList()), resource,
                                s.getStatus().getCode() == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR));
                    }
                }
            }
            byte[] out = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, out.length == 0 ? -1 : out.length);
            if (out.length > 0) exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    /** What tracing.otlp-endpoint is set to: the base address, as for a collector. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Span> spans() {
        return List.copyOf(spans);
    }

    /** The first span that matches, waiting for it up to 30 s (spans are exported in batches): a hang, not a timing check. */
    public Span await(String what, Predicate<Span> which) {
        return awaitAll(what, 1, which).getFirst();
    }

    /** At least {@code n} spans that match, waiting up to 30 s. */
    public List<Span> awaitAll(String what, int n, Predicate<Span> which) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<Span> found = spans.stream().filter(which).toList();
            if (found.size() >= n) return found;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " among the spans received within 30 s (" + found.size() + " of " + n + "): " + spans);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static Map<String, String> attributes(Resource r) {
        return attributes(r.getAttributesList());
    }

    private static Map<String, String> attributes(List<KeyValue> kvs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : kvs) out.put(kv.getKey(), text(kv.getValue()));
        return out;
    }

    private static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            default -> v.toString();
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
