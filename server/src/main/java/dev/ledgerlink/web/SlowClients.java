package dev.ledgerlink.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clients too slow to send a request: its line and headers not in within {@code http.header-timeout}
 * of their first byte, or its body not in after the server has waited {@code http.body-timeout} for it
 * in all. Jetty's idle timeout only closes a connection that sends nothing; one that sends a byte every
 * few seconds (slowloris) would hold its connection, buffer and, for a body, a handler thread for ever.
 * Jetty has no timeout for a whole request head, and its minimum body data rate counts from the first
 * byte however long the handler took before reading (jetty/jetty.project#4641), so these two rules are
 * ours: a sweep every {@link #tick} over the open connections, reading where each one's HTTP parser is.
 *
 * <p>A head is timed from when the sweep first sees it begun (the parser past its start state) until it
 * is complete. A body is timed only while the server waits on the client for it (the handler blocked in
 * a read: the connection is interested in filling), so a request the server is slow to handle is never
 * cut for that. The connection is then closed: a handler waiting for the body gets an end of file (a
 * 400 it cannot deliver) and nothing is logged as the service's failure;
 * {@code ledgerlink_http_slow_clients_closed_total{phase}} counts them.
 *
 * <p>Reads Jetty's {@code HttpConnection} (the HTTP/1.1 connection, the only one the API port serves),
 * whose parser Jetty exposes for such uses; sampled from another thread, a state seen a tick late
 * only makes a limit up to one tick longer.
 */
final class SlowClients {
    private static final Logger LOG = LoggerFactory.getLogger(SlowClients.class);
    private final Server server;
    private final long headerTimeoutNanos;
    private final long bodyTimeoutNanos;
    private final Duration tick;
    private final Counter headersClosed;
    private final Counter bodiesClosed;
    private final Map<EndPoint, Progress> watched = new ConcurrentHashMap<>();
    private volatile Scheduler.Task next;
    private volatile boolean running;

    /** Where one connection's current request stands, as the sweeps saw it. */
    private static final class Progress {
        long request = -1;          // the connection's messagesIn when this request was first seen
        long headSince;             // when its head was first seen begun, or 0
        long bodyWaited;            // nanos the server waited on the client for its body, in all
        long lastSweep;
    }

    SlowClients(Server server, Duration headerTimeout, Duration bodyTimeout, MeterRegistry metrics) {
        this.server = server;
        this.headerTimeoutNanos = headerTimeout.toNanos();
        this.bodyTimeoutNanos = bodyTimeout.toNanos();
        // A quarter of the shorter limit, between 100 ms and 1 s: a limit is kept to within a quarter of itself.
        long quarter = Math.min(headerTimeout.toMillis(), bodyTimeout.toMillis()) / 4;
        this.tick = Duration.ofMillis(Math.clamp(quarter, 100, 1000));
        this.headersClosed = closedCounter(metrics, "headers");
        this.bodiesClosed = closedCounter(metrics, "body");
    }

    private static Counter closedCounter(MeterRegistry metrics, String phase) {
        return Counter.builder("ledgerlink.http.slow.clients.closed").tag("phase", phase)
                .description("Connections closed because a request's headers or body took too long to arrive").register(metrics);
    }

    void start() {
        running = true;
        schedule();
    }

    void stop() {
        running = false;
        Scheduler.Task t = next;
        if (t != null) t.cancel();
        watched.clear();
    }

    private void schedule() {
        if (running) next = server.getScheduler().schedule(this::sweepAndReschedule, tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sweepAndReschedule() {
        try {
            sweep(System.nanoTime());
        } catch (RuntimeException e) {
            LOG.warn("slow client sweep failed: {}", e.toString());
        } finally {
            schedule();
        }
    }

    void sweep(long now) {
        for (Connector c : server.getConnectors()) {
            for (EndPoint ep : c.getConnectedEndPoints()) {
                if (ep.getConnection() instanceof HttpConnection http) check(ep, http, now);
            }
        }
        watched.keySet().removeIf(ep -> !ep.isOpen());
    }

    private void check(EndPoint ep, HttpConnection http, long now) {
        HttpParser parser = http.getParser();
        boolean head = parser.inHeaderState() && !parser.isStart();
        boolean body = parser.inContentState();
        if (!head && !body) {
            watched.remove(ep);
            return;
        }
        Progress p = watched.computeIfAbsent(ep, e -> new Progress());
        long request = http.getMessagesIn();
        if (p.request != request) {
            p.request = request;
            p.headSince = 0;
            p.bodyWaited = 0;
            p.lastSweep = now;
        }
        if (head) {
            if (p.headSince == 0) p.headSince = now;
            if (now - p.headSince > headerTimeoutNanos) close(ep, headersClosed, "its request's headers did not arrive within http.header-timeout");
        } else {
            if (ep.isFillInterested()) p.bodyWaited += now - p.lastSweep;
            if (p.bodyWaited > bodyTimeoutNanos) close(ep, bodiesClosed, "its request's body did not arrive within http.body-timeout");
        }
        p.lastSweep = now;
    }

    private void close(EndPoint ep, Counter counter, String why) {
        watched.remove(ep);
        counter.increment();
        ep.close(new EofException("connection closed: " + why));
    }
}
