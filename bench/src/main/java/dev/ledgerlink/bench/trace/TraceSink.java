package dev.ledgerlink.bench.trace;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The collector of a --tracing run: accepts OTLP/HTTP exports (POST /v1/traces) on loopback, as fast
 * as a collector beside the server would, and counts them and their bytes without decoding them.
 * It runs in the load generator's JVM, so the server pays what exporting costs it (encoding, the
 * HTTP call) and nothing of a collector's own work.
 */
public final class TraceSink implements AutoCloseable {
    private static final byte[] EMPTY = new byte[0];

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong exports = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    private TraceSink(HttpServer server) {
        this.server = server;
    }

    public static TraceSink start() {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TraceSink sink = new TraceSink(server);
        server.setExecutor(sink.executor);
        server.createContext("/", exchange -> {
            boolean traces = exchange.getRequestMethod().equals("POST") && exchange.getRequestURI().getPath().equals("/v1/traces");
            try (InputStream in = exchange.getRequestBody()) {
                long n = in.transferTo(java.io.OutputStream.nullOutputStream());
                if (traces) {
                    sink.exports.incrementAndGet();
                    sink.bytes.addAndGet(n);
                }
            }
            // 200 with an empty ExportTraceServiceResponse (no partial rejection): every span accepted.
            if (traces) exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(traces ? 200 : 404, -1);
            exchange.getResponseBody().write(EMPTY);
            exchange.close();
        });
        server.start();
        return sink;
    }

    /** What the servers' tracing.otlp-endpoint is set to. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Export requests received so far. */
    public long exports() {
        return exports.get();
    }

    /** Their bodies' bytes (protobuf) in all. */
    public long bytes() {
        return bytes.get();
    }

    /** A W3C traceparent of a new sampled trace, as a traced publisher sends with its publish. */
    public static String newTraceparent() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return String.format("00-%016x%016x-%016x-01", r.nextLong() | 1, r.nextLong(), r.nextLong() | 1);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
