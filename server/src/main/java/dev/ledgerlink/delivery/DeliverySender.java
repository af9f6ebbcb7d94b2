package dev.ledgerlink.delivery;

import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.retry.RetryAfter;
import dev.ledgerlink.retry.RetryRule;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one attempt with the one shared JDK HttpClient (HTTP/1.1, redirects not followed, so a 3xx
 * is a plain failure). The whole attempt, connection and the first 4 KiB of the body included, has
 * delivery.timeout (10 s). Runs on a virtual thread; holds no database resources.
 *
 * <p>Right before the request the {@link PublicAddressGate} resolves the target and checks every
 * address (outside development mode); a refused target is recorded as a failed attempt without a
 * connection. For http the request then goes to the checked address itself, the URI's host in the
 * Host header, so a DNS answer that changes between the check and the connection (rebinding) cannot
 * redirect it: the JDK client allows that header only when the JVM-wide property
 * {@value #HOST_HEADER_PROPERTY} names it before its first use, which the server sets at start
 * ({@link #allowHostHeader}); without it the request keeps the checked name. For https the name must
 * stay in the URI for TLS, so a rebinding between the check and the client's own lookup remains
 * possible; the window is milliseconds (docs/delivery.md, "Safety").
 */
final class DeliverySender implements AutoCloseable {
    static final int BODY_LIMIT = 4096;
    static final String HOST_HEADER_PROPERTY = "jdk.httpclient.allowRestrictedHeaders";

    private final HttpClient client;
    private final Duration timeout;
    private final PublicAddressGate gate;
    private final Clock clock;

    private final ExecutorService executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    /**
     * Lets the JDK HTTP client send the Host header of an http request pinned to its checked address.
     * JVM-wide and read once, when the client is first used: called at start, before any client exists.
     */
    static void allowHostHeader() {
        if (System.getProperty(HOST_HEADER_PROPERTY) == null) System.setProperty(HOST_HEADER_PROPERTY, "host");
    }

    DeliverySender(Duration timeout, PublicAddressGate gate, Clock clock) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout)
                .executor(executor)
                .build();
        this.timeout = timeout;
        this.gate = gate;
        this.clock = clock;
    }

    AttemptOutcome send(String uri, WebhookRequest webhook) {
        long started = System.nanoTime();
        HttpRequest request;
        try {
            request = request(uri, webhook);
        } catch (RefusedTarget e) {
            return AttemptOutcome.noResponse(elapsedMs(started), "refused: " + e.getMessage());
        } catch (IllegalArgumentException | URISyntaxException e) {
            return AttemptOutcome.noResponse(elapsedMs(started), "invalid callback URI: " + e.getMessage());
        }
        AttemptOutcome first = exchange(request, started, started + timeout.toNanos());
        // A pooled keep-alive connection the receiver had just closed fails at once with no response;
        // send once more on a fresh connection within the same attempt (at least once allows it).
        if (first.status() == null && first.error() != null && first.error().startsWith(STALE_CONNECTION)
                && System.nanoTime() - started < timeout.toNanos() / 2) {
            return exchange(request, started, started + timeout.toNanos());
        }
        return first;
    }

    private static final String STALE_CONNECTION = "stale connection: ";

    private AttemptOutcome exchange(HttpRequest request, long started, long deadline) {
        CompletableFuture<HttpResponse<InputStream>> sending = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        // The body is read with blocking calls, so on one of our virtual threads: sendAsync completes
        // its future in the common ForkJoinPool, where a blocking read made the pool add a platform
        // thread for each one waiting (docs/benchmarks-history.md, "The response body read on a virtual thread").
        CompletableFuture<AttemptOutcome> attempt = sending.thenApplyAsync(r -> read(r, started), executor);
        try {
            return attempt.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            sending.cancel(true);
            sending.thenAccept(r -> closeQuietly(r.body()));
            return AttemptOutcome.noResponse(elapsedMs(started), "timed out after " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            sending.cancel(true);
            Thread.currentThread().interrupt();
            return AttemptOutcome.noResponse(elapsedMs(started), "interrupted (server stopping)");
        } catch (ExecutionException e) {
            return AttemptOutcome.noResponse(elapsedMs(started), describe(e.getCause()));
        }
    }

    private HttpRequest request(String uri, WebhookRequest webhook) throws RefusedTarget, URISyntaxException {
        URI target = new URI(uri);
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase();
        if (!scheme.equals("http") && !scheme.equals("https")) throw new IllegalArgumentException("scheme must be http or https");
        HttpRequest.Builder b = HttpRequest.newBuilder().timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(webhook.body(), StandardCharsets.UTF_8));
        String host = target.getHost();
        if (scheme.equals("http")) {
            var refusal = gate.httpRefusalAtSend(host);
            if (refusal.isPresent()) throw new RefusedTarget("http to " + host + ": " + refusal.get());
        }
        switch (gate.check(host)) {
            case PublicAddressGate.Exempt exempt -> { }   // development mode: called by name
            case PublicAddressGate.Unresolved unresolved ->
                    throw new RefusedTarget(host == null ? "the callback URI has no host" : "the host " + host + " does not resolve");
            case PublicAddressGate.NotPublic n -> throw new RefusedTarget("the host " + host + " resolves to a non-public address ("
                    + n.address().getHostAddress() + ", " + n.block() + ")");
            case PublicAddressGate.Public checked -> {
                if (scheme.equals("http")) target = pinned(target, checked.address(), b);
            }
        }
        b.uri(target);
        for (Map.Entry<String, String> h : webhook.headers().entrySet()) b.header(h.getKey(), h.getValue());
        return b.build();
    }

    /** The http URI with the checked address in place of its host, which goes in the Host header instead (when the client allows it). */
    private static URI pinned(URI target, InetAddress checked, HttpRequest.Builder b) throws URISyntaxException {
        String ip = checked.getHostAddress();
        if (ip.contains(":")) ip = "[" + ip + "]";
        URI pinned = new URI("http", target.getRawUserInfo(), ip, target.getPort(), target.getRawPath(), target.getRawQuery(), null);
        try {
            b.header("Host", target.getPort() < 0 ? target.getHost() : target.getHost() + ":" + target.getPort());
            return pinned;
        } catch (IllegalArgumentException hostRestricted) {
            return target;   // the HTTP client was first used before Host was allowed: keep the checked name
        }
    }

    /** Why the gate refused the target, in the words the attempt's history shows. */
    private static final class RefusedTarget extends Exception {
        RefusedTarget(String message) {
            super(message, null, false, false);
        }
    }

    private AttemptOutcome read(HttpResponse<InputStream> response, long started) {
        String body;
        try (InputStream in = response.body()) {
            body = new String(in.readNBytes(BODY_LIMIT), StandardCharsets.UTF_8);
        } catch (IOException e) {
            body = null;
        }
        Duration retryAfter = RetryAfter.parse(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null), clock.instant());
        String error = RetryRule.succeeded(response.statusCode()) ? null : "HTTP " + response.statusCode();
        return new AttemptOutcome(response.statusCode(), elapsedMs(started), error, AttemptRecord.headers(response.headers().map()), body, retryAfter);
    }

    private static String describe(Throwable t) {
        if (t instanceof HttpConnectTimeoutException) return "connect timed out";
        if (t instanceof HttpTimeoutException) return "timed out";
        if (t instanceof java.net.ConnectException) return "connection refused";
        if (t instanceof IOException && t.getMessage() != null
                && (t.getMessage().contains("received no bytes") || t.getMessage().contains("Connection reset"))) {
            return STALE_CONNECTION + t.getMessage();
        }
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static long elapsedMs(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the attempt is already over
        }
    }

    @Override
    public void close() {
        client.shutdownNow();
        executor.shutdownNow();
    }
}
