package dev.ledgerlink.bench.flood;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hostile connections against one HTTP port, as a flood brings them (issue 33, "Connection floods"):
 * connections opened and left idle, request heads trickled in a header line at a time and never
 * finished (slowloris), and bodies announced with a Content-Length and then trickled a byte at a time.
 * One selector thread notices the server closing them (each counted by kind); a trickle thread sends
 * the next line or byte of every slow connection each {@link Plan#trickle}. With {@link Plan#reopen},
 * a connection the server closed is opened again, so the flood keeps its size for as long as it runs.
 */
public final class ConnectionFlood implements AutoCloseable {
    public enum Kind { IDLE, SLOW_HEADERS, HALF_BODY }

    /** How many of each kind, how often a slow connection sends its next piece, and whether closed ones are opened again. */
    public record Plan(int idle, int slowHeaders, int halfBodies, Duration trickle, boolean reopen) {
        int count(Kind k) {
            return switch (k) {
                case IDLE -> idle;
                case SLOW_HEADERS -> slowHeaders;
                case HALF_BODY -> halfBodies;
            };
        }
    }

    /** A request the token endpoint reads in full before anything else: a body it must wait for. */
    private static final String HALF_BODY_HEAD = "POST /auth/oauth/token HTTP/1.1\r\nHost: flood\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ngrant_type=";
    private static final String SLOW_HEAD = "GET /healthz HTTP/1.1\r\nHost: flood\r\n";

    private final InetSocketAddress target;
    private final Plan plan;
    private final Selector selector;
    private final Map<SocketChannel, Kind> open = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<SocketChannel> toRegister = new ConcurrentLinkedQueue<>();
    private final Map<Kind, AtomicLong> opened = counters();
    private final Map<Kind, AtomicLong> closedByServer = counters();
    private final Map<Kind, AtomicLong> answered = counters();
    private final AtomicLong connectFailures = new AtomicLong();
    private final Thread watcher;
    private final Thread trickler;
    private volatile boolean running = true;

    private ConnectionFlood(InetSocketAddress target, Plan plan) throws IOException {
        this.target = target;
        this.plan = plan;
        this.selector = Selector.open();
        this.watcher = Thread.ofPlatform().daemon().name("flood-watcher").start(this::watch);
        this.trickler = Thread.ofPlatform().daemon().name("flood-trickle").start(this::trickleLoop);
    }

    /** Opens every connection of the plan (returns once each is connected, or counted as failed) and keeps them so. */
    public static ConnectionFlood start(String host, int port, Plan plan) throws IOException {
        ConnectionFlood flood = new ConnectionFlood(new InetSocketAddress(host, port), plan);
        for (Kind k : Kind.values()) {
            for (int i = 0; i < plan.count(k); i++) flood.openOne(k);
        }
        return flood;
    }

    private void openOne(Kind kind) {
        if (!running) return;
        try {
            SocketChannel ch = SocketChannel.open();
            ch.socket().connect(target, 10_000);
            ch.configureBlocking(false);
            open.put(ch, kind);
            opened.get(kind).incrementAndGet();
            if (kind == Kind.SLOW_HEADERS) write(ch, SLOW_HEAD);
            if (kind == Kind.HALF_BODY) write(ch, HALF_BODY_HEAD);
            toRegister.add(ch);
            selector.wakeup();
        } catch (IOException e) {
            connectFailures.incrementAndGet();
        }
    }

    private void watch() {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        while (running) {
            try {
                selector.select(200);
                for (SocketChannel ch = toRegister.poll(); ch != null; ch = toRegister.poll()) {
                    if (ch.isOpen()) ch.register(selector, SelectionKey.OP_READ);
                }
                Set<SelectionKey> ready = selector.selectedKeys();
                for (SelectionKey key : ready) {
                    SocketChannel ch = (SocketChannel) key.channel();
                    Kind kind = open.get(ch);
                    if (kind == null) continue;
                    int n;
                    try {
                        buf.clear();
                        n = ch.read(buf);
                    } catch (IOException reset) {
                        n = -1;
                    }
                    if (n > 0) answered.get(kind).incrementAndGet();
                    if (n < 0) closedByServer(ch, kind);
                }
                ready.clear();
            } catch (IOException | RuntimeException e) {
                if (running) System.err.println("flood watcher: " + e);
            }
        }
    }

    private void trickleLoop() {
        long i = 0;
        while (running) {
            try {
                Thread.sleep(plan.trickle());
            } catch (InterruptedException e) {
                return;
            }
            i++;
            for (Map.Entry<SocketChannel, Kind> e : open.entrySet()) {
                String piece = switch (e.getValue()) {
                    case IDLE -> null;
                    case SLOW_HEADERS -> "X-Slow-" + i + ": a\r\n";
                    case HALF_BODY -> "a";
                };
                if (piece == null) continue;
                try {
                    write(e.getKey(), piece);
                } catch (IOException closed) {
                    closedByServer(e.getKey(), e.getValue());
                }
            }
        }
    }

    private void closedByServer(SocketChannel ch, Kind kind) {
        if (open.remove(ch) == null) return;
        closedByServer.get(kind).incrementAndGet();
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
        if (plan.reopen() && running) Thread.ofVirtual().start(() -> openOne(kind));
    }

    private static void write(SocketChannel ch, String text) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (b.hasRemaining()) {
            if (ch.write(b) == 0) return;   // the server's receive buffer is full: it is not reading; try again next time
        }
    }

    /** Connections of {@code kind} opened so far (with those opened again). */
    public long opened(Kind kind) { return opened.get(kind).get(); }

    /** Connections of {@code kind} the server has closed. */
    public long closedByServer(Kind kind) { return closedByServer.get(kind).get(); }

    /** Connections of {@code kind} on which the server sent something before closing (a response). */
    public long answered(Kind kind) { return answered.get(kind).get(); }

    /** Connections of {@code kind} open now. */
    public long openNow(Kind kind) { return open.values().stream().filter(k -> k == kind).count(); }

    /** Connects that failed (refused, or not accepted within 10 s). */
    public long connectFailures() { return connectFailures.get(); }

    @Override
    public void close() {
        running = false;
        trickler.interrupt();
        selector.wakeup();
        try {
            watcher.join(5_000);
            trickler.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SocketChannel ch : open.keySet()) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        open.clear();
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static Map<Kind, AtomicLong> counters() {
        Map<Kind, AtomicLong> m = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) m.put(k, new AtomicLong());
        return m;
    }
}
