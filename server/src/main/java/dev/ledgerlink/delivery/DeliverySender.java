package dev.ledgerlink.delivery;

import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.retry.RetryAfter;
import dev.ledgerlink.retry.RetryRule;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Sends one attempt with the one shared Jetty HttpClient (HTTP/1.1, redirects not followed, so a 3xx
 * is a plain failure). The whole attempt, connection and the first 4 KiB of the body included, has
 * delivery.timeout (10 s). Runs on a virtual thread (the engine's), which also reads the body;
 * holds no database resources.
 *
 * <p>Where it connects is the {@link PublicAddressGate}'s answer and nothing else: the client's
 * resolver is {@link GateResolver}, which asks the gate for the host's addresses whenever a
 * connection is opened, every one checked outside development mode, and hands the client those
 * very addresses to connect to. There is no second lookup, so a DNS answer that changes between a
 * check and a connection (rebinding) cannot lead a webhook elsewhere, for http and https alike; the
 * URI keeps its host, so the Host header, TLS's server name and its certificate check are the
 * name's. A refused host fails the attempt without a connection ("refused: ..."). A kept-alive
 * connection is reused only for its own host and port: it goes to an address checked when it was
 * opened. Plain http is refused again before every attempt outside development mode
 * ({@link PublicAddressGate#httpRefusal}).
 */
final class DeliverySender implements AutoCloseable {
    static final int BODY_LIMIT = 4096;

    private final HttpClient client;
    private final Duration timeout;
    private final PublicAddressGate gate;
    private final Clock clock;

    /**
     * @param connections how many attempts may be in flight at once (delivery.concurrency): the
     *                    client allows that many connections to one host, so the engine's shares
     *                    (per callback, in all) are the only limits, as each attempt has its socket
     */
    DeliverySender(Duration timeout, int connections, PublicAddressGate gate, Clock clock) {
        this(timeout, connections, gate, clock, new ClientConnector(), new SslContextFactory.Client());
    }

    /** With a connector and TLS settings of the caller's: tests watch where connections go, or trust their own receiver's certificate. */
    DeliverySender(Duration timeout, int connections, PublicAddressGate gate, Clock clock, ClientConnector connector, SslContextFactory.Client tls) {
        this.timeout = timeout;
        this.gate = gate;
        this.clock = clock;
        QueuedThreadPool threads = new QueuedThreadPool(Math.max(8, Runtime.getRuntime().availableProcessors() * 4), 2);
        threads.setName("webhook-client");
        threads.setDaemon(true);
        connector.setSslContextFactory(tls);
        connector.setConnectTimeout(timeout);
        connector.setIdleTimeout(IDLE_TIMEOUT);
        this.client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        client.setSocketAddressResolver(new GateResolver(gate));
        client.setFollowRedirects(false);
        client.setConnectTimeout(timeout.toMillis());
        client.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        client.setMaxConnectionsPerDestination(connections);
        client.setMaxRequestsQueuedPerDestination(Math.max(1024, connections));
        client.setUserAgentField(null);              // the request's own User-Agent, nothing added
        client.setHttpCookieStore(new org.eclipse.jetty.http.HttpCookieStore.Empty());
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("the webhook HTTP client did not start", e);
        }
        // Set at start, so cleared after it: no Accept-Encoding (the body is recorded as the receiver sent
        // it), and no protocol handlers (a 401 or 407 is an answer like any other, not a challenge to
        // take up; a 3xx is never followed).
        client.getContentDecoderFactories().clear();
        client.getProtocolHandlers().clear();
    }

    /**
     * How long a kept-alive connection to a receiver may sit unused before it is closed. An exchange
     * waits for its answer for what is left of delivery.timeout instead, however long that is.
     */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    AttemptOutcome send(String uri, WebhookRequest webhook) {
        long started = System.nanoTime();
        URI target;
        try {
            target = target(uri);
        } catch (RefusedTarget e) {
            return AttemptOutcome.noResponse(elapsedMs(started), "refused: " + e.getMessage());
        } catch (IllegalArgumentException | URISyntaxException e) {
            return AttemptOutcome.noResponse(elapsedMs(started), "invalid callback URI: " + e.getMessage());
        }
        long deadline = started + timeout.toNanos();
        AttemptOutcome first = exchange(target, webhook, started, deadline);
        // A pooled keep-alive connection the receiver had just closed fails at once with no response;
        // send once more within the same attempt (at least once allows it).
        if (first.status() == null && first.error() != null && first.error().startsWith(STALE_CONNECTION)
                && System.nanoTime() - started < timeout.toNanos() / 2) {
            return exchange(target, webhook, started, deadline);
        }
        return first;
    }

    private static final String STALE_CONNECTION = "stale connection: ";

    /** The callback URI as sent: http or https, with a host; plain http refused where the gate refuses it. */
    private URI target(String uri) throws RefusedTarget, URISyntaxException {
        URI target = new URI(uri);
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) throw new IllegalArgumentException("scheme must be http or https");
        String host = target.getHost();
        if (host == null || host.isEmpty()) throw new RefusedTarget("the callback URI has no host");
        if (scheme.equals("http")) {
            var refusal = gate.httpRefusal(host);
            if (refusal.isPresent()) throw new RefusedTarget("http to " + host + ": " + refusal.get());
        }
        return target;
    }

    private AttemptOutcome exchange(URI target, WebhookRequest webhook, long started, long deadline) {
        long left = Math.max(1, deadline - System.nanoTime());
        Request request = client.newRequest(target).method(HttpMethod.POST)
                .timeout(TimeUnit.NANOSECONDS.toMillis(left) + 1, TimeUnit.MILLISECONDS)
                // A receiver silent for longer than a pooled connection may idle is still within delivery.timeout.
                .idleTimeout(TimeUnit.NANOSECONDS.toMillis(left) + 1, TimeUnit.MILLISECONDS)
                .headers(h -> webhook.headers().forEach(h::put))
                .body(new BytesRequestContent(webhook.body().getBytes(StandardCharsets.UTF_8)));
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        try {
            Response response = listener.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return read(response, listener, started);
        } catch (TimeoutException e) {
            request.abort(e);
            return AttemptOutcome.noResponse(elapsedMs(started), "timed out after " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            request.abort(e);
            Thread.currentThread().interrupt();
            return AttemptOutcome.noResponse(elapsedMs(started), "interrupted (server stopping)");
        } catch (ExecutionException e) {
            return AttemptOutcome.noResponse(elapsedMs(started), describe(e.getCause()));
        }
    }

    /**
     * The answer: its status and headers, and the first 4 KiB of its body, read here (a virtual
     * thread) within what is left of the request's timeout; what the receiver sends beyond them is
     * not awaited (the connection is then closed).
     */
    private AttemptOutcome read(Response response, InputStreamResponseListener listener, long started) {
        String body;
        try (InputStream in = listener.getInputStream()) {
            body = new String(in.readNBytes(BODY_LIMIT), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            body = null;   // the status came; the body did not (in time)
        }
        Duration retryAfter = RetryAfter.parse(response.getStatus(), response.getHeaders().get("Retry-After"), clock.instant());
        String error = RetryRule.succeeded(response.getStatus()) ? null : "HTTP " + response.getStatus();
        return new AttemptOutcome(response.getStatus(), elapsedMs(started), error, AttemptRecord.headers(headers(response)), body, retryAfter);
    }

    private static Map<String, List<String>> headers(Response response) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (HttpField f : response.getHeaders()) out.computeIfAbsent(f.getName(), n -> new ArrayList<>()).add(f.getValue());
        return out;
    }

    /** Why an attempt got no answer, in the words the attempt's history shows. */
    private String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RefusedTarget refused) return "refused: " + refused.getMessage();
        }
        Throwable t = failure;
        if (t instanceof UnknownHostException) return t.getMessage();
        if (t instanceof TimeoutException) return "timed out after " + timeout.toMillis() + " ms";
        if (t instanceof SocketTimeoutException) return "connect timed out";
        if (t instanceof ConnectException) return "connection refused";
        if (t instanceof SSLException) return "TLS: " + t.getMessage();
        if (t instanceof EOFException || t instanceof ClosedChannelException
                || (t instanceof IOException && t.getMessage() != null && t.getMessage().contains("Connection reset"))) {
            return STALE_CONNECTION + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        }
        String m = t == null ? null : t.getMessage();
        return (t == null ? "failed" : t.getClass().getSimpleName()) + (m == null ? "" : ": " + m);
    }

    /**
     * The client's only way to a host's addresses: the gate's, asked once per connection opened, its
     * answer the list the client connects to (in order, the next on a failed connect). A refusal fails
     * the connection with {@link RefusedTarget}. The lookup may block, so it runs on a virtual thread
     * of its own, never on the client's few platform threads.
     */
    private static final class GateResolver implements SocketAddressResolver {
        private final PublicAddressGate gate;

        GateResolver(PublicAddressGate gate) {
            this.gate = gate;
        }

        @Override
        public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
            Thread.ofVirtual().name("webhook-resolve").start(() -> {
                try {
                    promise.succeeded(addresses(host, port));
                } catch (RefusedTarget | UnknownHostException refused) {
                    promise.failed(refused);
                } catch (RuntimeException e) {
                    promise.failed(e);
                }
            });
        }

        private List<InetSocketAddress> addresses(String host, int port) throws RefusedTarget, UnknownHostException {
            List<InetAddress> checked = switch (gate.addressesToConnect(host)) {
                case PublicAddressGate.Public p -> p.addresses();
                case PublicAddressGate.Unchecked u -> u.addresses();
                case PublicAddressGate.Exempt e -> throw new IllegalStateException("the gate exempts only at registration");
                case PublicAddressGate.Unresolved u -> throw new UnknownHostException("the host " + host + " does not resolve");
                case PublicAddressGate.NotPublic n -> throw new RefusedTarget("the host " + host + " resolves to a non-public address ("
                        + n.address().getHostAddress() + ", " + n.block() + ")");
            };
            return checked.stream().map(a -> new InetSocketAddress(a, port)).toList();
        }
    }

    /** Why the gate refused the target, in the words the attempt's history shows. */
    static final class RefusedTarget extends Exception {
        RefusedTarget(String message) {
            super(message, null, false, false);
        }
    }

    private static long elapsedMs(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            // stopping: the connections close with the process
        }
    }
}
