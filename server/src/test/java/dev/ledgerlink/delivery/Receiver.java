package dev.ledgerlink.delivery;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/** A real webhook receiver on loopback: records every request and answers as the test says. */
public final class Receiver implements AutoCloseable {
    public record Request(String body, Map<String, List<String>> headers) {
        public String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) return e.getValue().getFirst();
            }
            return null;
        }
    }

    /** How to answer: a status code, optional headers, and an optional delay before answering. */
    public record Answer(int status, Map<String, String> headers, Duration delay) {
        public static Answer of(int status) {
            return new Answer(status, Map.of(), Duration.ZERO);
        }
    }

    public final java.util.Queue<Request> requests = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
    private final HttpServer server;
    private volatile Function<Request, Answer> answer = r -> Answer.of(200);

    public Receiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request r = new Request(body, Map.copyOf(exchange.getRequestHeaders()));
            requests.add(r);
            received.incrementAndGet();
            Answer a = answer.apply(r);
            if (!a.delay().isZero()) {
                try {
                    Thread.sleep(a.delay());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] out = ("ok " + a.status()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(a.status(), out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    /** Requests received since the last {@link #clear()}. */
    public int received() {
        return received.get();
    }

    public void clear() {
        requests.clear();
        received.set(0);
    }

    public void answer(Function<Request, Answer> answer) {
        this.answer = answer;
    }

    public String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** Waits (up to 60 s) until at least {@code n} requests matching {@code which} arrived. */
    public List<Request> await(int n, Predicate<Request> which) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            List<Request> matching = requests.stream().filter(which).toList();
            if (matching.size() >= n) return matching;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("expected " + n + " requests, got " + requests.stream().filter(which).count()
                + (requests.size() <= 20 ? ": " + requests : ""));
    }

    public List<Request> await(int n) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (received.get() < n && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        return await(n, r -> true);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
