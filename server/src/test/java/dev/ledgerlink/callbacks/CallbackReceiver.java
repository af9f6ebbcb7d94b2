package dev.ledgerlink.callbacks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A webhook receiver as an integrating application runs one: a real HTTP server on loopback that
 * answers 200 to every POST and keeps what it got. Given an {@link #onVerification} hook it acts
 * like a real app on the verification request (reads the code and PUTs it back).
 */
public final class CallbackReceiver implements AutoCloseable {
    public record Received(String body, Map<String, String> params, String signature) {
        public String param(String name) { return params.get(name); }
    }

    final List<Received> all = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Received> queue = new LinkedBlockingQueue<>();
    private final HttpServer server;
    private volatile Consumer<Received> onVerification = r -> {};

    public CallbackReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Received r = new Received(body, parse(body), exchange.getRequestHeaders().getFirst("X-Service-Hmac-SHA256"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
            all.add(r);
            queue.add(r);
            if ("callback.verify".equals(r.param("name"))) Thread.startVirtualThread(() -> onVerification.accept(r));
        });
        server.start();
    }

    public String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/ledgerlink";
    }

    void onVerification(Consumer<Received> handler) {
        this.onVerification = handler;
    }

    /** The next request received; fails the test if none comes within 30 seconds (a hang, not a timing check). */
    public Received next() {
        try {
            Received r = queue.poll(30, TimeUnit.SECONDS);
            if (r == null) throw new AssertionError("the receiver got no request within 30 s; got so far: " + all);
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next request whose name parameter is {@code name}, skipping others. */
    public Received next(String name) {
        while (true) {
            Received r = next();
            if (name.equals(r.param("name"))) return r;
        }
    }

    private static Map<String, String> parse(String form) {
        Map<String, String> m = new LinkedHashMap<>();
        if (form.isEmpty()) return m;
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            m.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return m;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
