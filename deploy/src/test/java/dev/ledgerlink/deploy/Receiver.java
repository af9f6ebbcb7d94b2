package dev.ledgerlink.deploy;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.client.Notification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A webhook receiver in the test's process: on the host's loopback (containers on the host network reach
 * it as 127.0.0.1), or on every interface, where containers on a bridge network reach it through their
 * engine's name for the host ({@link #startForContainers()}).
 */
final class Receiver implements AutoCloseable {
    record Received(String path, String body, String signature, Notification notification) {}

    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final int port;
    private final boolean everyInterface;
    private HttpServer server;

    Receiver(int port) {
        this(port, false);
    }

    private Receiver(int port, boolean everyInterface) {
        this.port = port;
        this.everyInterface = everyInterface;
    }

    static Receiver start() {
        Receiver r = new Receiver(Sh.freePort());
        r.open();
        return r;
    }

    /** Listening on every interface, so containers on a bridge network reach it as host.containers.internal. */
    static Receiver startForContainers() {
        Receiver r = new Receiver(Sh.freePort(), true);
        r.open();
        return r;
    }

    /** Listens (again) on its port. */
    void open() {
        try {
            server = HttpServer.create(everyInterface ? new InetSocketAddress(port) : new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestURI().getPath(), body,
                    exchange.getRequestHeaders().getFirst(Notification.SIGNATURE_HEADER), Notification.parse(body)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    /** Stops listening: attempts get connection refused until {@link #open()}. */
    void shut() {
        server.stop(0);
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Its address for a sandbox that reaches this process as {@code host} (Sandbox.callbackHost()). */
    String url(String host, String path) {
        return "http://" + host + ":" + port + path;
    }

    /** The next request whose notification is {@code name}, waiting at most {@code timeout}. */
    Received next(String name, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            Received r = received.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (r == null) throw new AssertionError("no " + name + " arrived at the receiver within " + timeout);
            if (r.notification().name().equals(name)) return r;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
