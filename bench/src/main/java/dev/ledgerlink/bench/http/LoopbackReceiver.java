package dev.ledgerlink.bench.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A small HTTP/1.1 server on 127.0.0.1 for callback deliveries: a virtual thread per connection,
 * keep-alive, and an empty 200 as soon as the request is read, so the receiver costs the server
 * under test as little CPU as possible. Paths under /hang/ never answer (until the connection is
 * closed by the sender or {@link #HANG_LIMIT_MS} passes): they stand for endpoints that time out.
 * Paths under /fail/ answer 500 at once: endpoints that are up and fail every attempt.
 */
public final class LoopbackReceiver implements AutoCloseable {
    /** Bound on a hanging answer, so nothing waits forever even if the sender never gives up. */
    public static final long HANG_LIMIT_MS = 30_000;
    private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FAIL = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** What the receiver was sent: the path, the headers (lower-case names) and the body. */
    public record Request(String method, String path, Map<String, String> headers, String body, long receivedNanos) {}

    public interface Handler {
        void received(Request request);
    }

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final Handler handler;
    private final java.util.concurrent.atomic.AtomicInteger hangingNow = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger hangingPeak = new java.util.concurrent.atomic.AtomicInteger();

    public LoopbackReceiver(Handler handler) throws IOException {
        this.handler = handler;
        this.server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        threads.submit(this::acceptLoop);
    }

    public int port() { return server.getLocalPort(); }

    public String url(String path) { return "http://127.0.0.1:" + port() + path; }

    /** The most requests held unanswered at once on /hang/ paths: the sender's attempts stuck on them. */
    public int hangingPeak() { return hangingPeak.get(); }

    public void resetHangingPeak() { hangingPeak.set(hangingNow.get()); }

    private void acceptLoop() {
        while (open.get()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                threads.submit(() -> serve(s));
            } catch (IOException e) {
                if (!open.get()) return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
            OutputStream out = s.getOutputStream();
            while (open.get()) {
                String line = HttpLines.readLine(in);
                if (line == null) return;
                if (line.isEmpty()) continue;
                String[] parts = line.split(" ", 3);
                if (parts.length < 2) return;
                Map<String, String> headers = HttpLines.readHeaders(in);
                String body = HttpLines.decodeAscii(HttpLines.readBody(in, headers));
                Request r = new Request(parts[0], parts[1], headers, body, System.nanoTime());
                if (r.path().startsWith("/hang/")) {
                    handler.received(r);
                    s.setSoTimeout((int) HANG_LIMIT_MS);
                    hangingPeak.accumulateAndGet(hangingNow.incrementAndGet(), Math::max);
                    try {
                        hang(in);
                    } finally {
                        hangingNow.decrementAndGet();
                    }
                    return;
                }
                out.write(r.path().startsWith("/fail/") ? FAIL : OK);
                out.flush();
                handler.received(r);
            }
        } catch (IOException | RuntimeException e) {
            // the sender closed or gave up: nothing to answer
        }
    }

    /** Holds the request unanswered until the sender closes the connection or the bound passes. */
    private static void hang(InputStream in) {
        long end = System.currentTimeMillis() + HANG_LIMIT_MS;
        try {
            while (System.currentTimeMillis() < end) {
                if (in.read() == -1) return;
            }
        } catch (IOException closed) {
            // the sender timed out and closed: that is what a hanging endpoint looks like from here
        }
    }

    @Override
    public void close() {
        open.set(false);
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        threads.shutdownNow();
    }
}
