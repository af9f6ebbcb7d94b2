package dev.ledgerlink.testing;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.signature.FormParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one webhook receiver of the tests, as an integrating application runs one: a real HTTP server
 * on loopback that records every request and answers as the test says (200 by default). Given an
 * {@link #onVerification} hook it acts like a real app on the verification request (reads the code
 * and PUTs it back). Injected by {@link TestServerExtension} (one per test, closed after it).
 */
public final class Receiver implements AutoCloseable {
    public record Request(String body, Map<String, List<String>> headers) {
        public String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) return e.getValue().getFirst();
            }
            return null;
        }

        /** A parameter of the form body (name, object_id, verifier, ...). */
        public String param(String name) {
            return FormParams.parse(body).get(name);
        }

        /** The form body's parameters in the order sent. */
        public Map<String, String> params() {
            Map<String, String> m = new java.util.LinkedHashMap<>();
            for (FormParams.Param p : FormParams.parse(body).params()) m.put(p.name(), p.value());
            return m;
        }

        /** The X-Service-Hmac-SHA256 signature. */
        public String signature() {
            return header("X-Service-Hmac-SHA256");
        }
    }

    /** How to answer: a status code, optional headers, and an optional delay before answering. */
    public record Answer(int status, Map<String, String> headers, Duration delay) {
        public static Answer of(int status) {
            return new Answer(status, Map.of(), Duration.ZERO);
        }
    }

    public final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final LinkedBlockingQueue<Request> unread = new LinkedBlockingQueue<>();
    private final AtomicInteger received = new AtomicInteger();
    private final HttpServer server;
    private volatile Function<Request, Answer> answer = r -> Answer.of(200);
    private volatile Consumer<Request> onVerification = r -> {};

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
            unread.add(r);
            if ("callback.verify".equals(r.param("name"))) Thread.startVirtualThread(() -> onVerification.accept(r));
        });
        server.start();
    }

    /** Requests received since the last {@link #clear()}. */
    public int received() {
        return received.get();
    }

    public void clear() {
        requests.clear();
        unread.clear();
        received.set(0);
    }

    public void answer(Function<Request, Answer> answer) {
        this.answer = answer;
    }

    public void onVerification(Consumer<Request> handler) {
        this.onVerification = handler;
    }

    public String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** The next request not yet read by next(); fails the test if none comes within 30 s (a hang, not a timing check). */
    public Request next() {
        try {
            Request r = unread.poll(30, TimeUnit.SECONDS);
            if (r == null) throw new AssertionError("the receiver got no request within 30 s; got so far: " + requests);
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next request whose name parameter is {@code name}, skipping others. */
    public Request next(String name) {
        while (true) {
            Request r = next();
            if (name.equals(r.param("name"))) return r;
        }
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
