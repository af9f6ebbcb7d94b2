package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.net.PublicAddressGate;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How DeliverySender waits for a receiver and where it connects, against real ones on loopback. */
class DeliverySenderTest {
    private static final int SENDS = 8;

    /**
     * A receiver that answers its headers at once and its body only later: each send then waits in
     * the body's blocking read. That read must wait on a virtual thread. Where the HTTP client
     * completes its future (the common ForkJoinPool) a blocked read makes the pool add a platform
     * thread for each one (76 of them under the benchmark's delivery load, before the fix).
     */
    @Test
    void aSlowBodyIsAwaitedOnAVirtualThreadNotOnAPlatformThread() throws Exception {
        CountDownLatch headersSent = new CountDownLatch(SENDS);
        CountDownLatch releaseBodies = new CountDownLatch(1);
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SENDS);
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "received".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.flush();
                headersSent.countDown();
                releaseBodies.await(30, TimeUnit.SECONDS);
                out.write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        receiver.start();
        String uri = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        WebhookRequest request = new WebhookRequest("name=invoice.create", Map.of("Content-Type", "application/x-www-form-urlencoded"),
                "name=invoice.create");
        try (DeliverySender sender = new DeliverySender(Duration.ofSeconds(30), 64, PublicAddressGate.of(true, PublicAddressGate.SYSTEM), Clock.systemUTC());
             var senders = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<AttemptOutcome>> sends = new ArrayList<>();
            for (int i = 0; i < SENDS; i++) sends.add(senders.submit(() -> sender.send(uri, request)));
            assertTrue(headersSent.await(30, TimeUnit.SECONDS), "the receiver got every request");

            int platformReaders = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < until) {   // the reads start once the headers arrive: look for a while
                platformReaders = Math.max(platformReaders, platformThreadsReadingABody());
                Thread.sleep(20);
            }
            releaseBodies.countDown();
            for (Future<AttemptOutcome> send : sends) {
                AttemptOutcome outcome = send.get(30, TimeUnit.SECONDS);
                assertEquals(200, outcome.status());
                assertEquals("received", outcome.responseBody());
            }
            assertEquals(0, platformReaders, "platform threads blocked reading a response body");
        } finally {
            releaseBodies.countDown();
            receiver.stop(0);
        }
    }

    /** Platform threads (Thread.getAllStackTraces lists no virtual ones) inside DeliverySender.read. */
    private static int platformThreadsReadingABody() {
        int n = 0;
        for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
            for (StackTraceElement e : stack) {
                if (e.getClassName().equals(DeliverySender.class.getName()) && e.getMethodName().equals("read")) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /** dev.callback-hosts is asked again at send time: a host it no longer lists is refused without a connection. */
    @Test
    void httpToAHostOutsideDevCallbackHostsIsRefusedAtSendTime() {
        WebhookRequest request = new WebhookRequest("name=invoice.create", Map.of("Content-Type", "application/x-www-form-urlencoded"),
                "name=invoice.create");
        try (DeliverySender without = new DeliverySender(Duration.ofSeconds(5), 64, PublicAddressGate.of(true, PublicAddressGate.SYSTEM), Clock.systemUTC());
             DeliverySender with = new DeliverySender(Duration.ofSeconds(5), 64, PublicAddressGate.of(true, java.util.Set.of("app"), PublicAddressGate.SYSTEM),
                     Clock.systemUTC())) {
            AttemptOutcome refused = without.send("http://app:9/hook", request);
            assertEquals("refused: http to app: must use https (http is allowed only to loopback hosts and to "
                    + "host.docker.internal, host.containers.internal, host.testcontainers.internal in development mode)", refused.error());
            AttemptOutcome tried = with.send("http://app.invalid:9/hook", request);
            assertTrue(tried.error().startsWith("refused: http to app.invalid"), tried.error());
            AttemptOutcome byName = with.send("http://app:9/hook", request);
            assertNull(byName.status());
            assertEquals("the host app does not resolve", byName.error(), "allowed, so looked up by its name");
        }
    }

    static final WebhookRequest WEBHOOK = new WebhookRequest("name=invoice.create&object_id=1",
            Map.of("Content-Type", "application/x-www-form-urlencoded", "User-Agent", "ledgerlink-webhooks/test"), "name=invoice.create&object_id=1");

    /** Outside development mode plain http is refused before any lookup or connection, whatever the host resolves to. */
    @Test
    void httpOutsideDevelopmentModeIsNeverSentWhateverTheHostResolvesTo() {
        List<String> asked = new CopyOnWriteArrayList<>();
        PublicAddressGate.Resolver rebinding = host -> {
            asked.add(host);
            return new InetAddress[] {InetAddress.getByName(asked.size() == 1 ? "93.184.216.34" : "127.0.0.1")};
        };
        RecordingConnector connector = new RecordingConnector();
        try (DeliverySender sender = new DeliverySender(Duration.ofSeconds(5), 64, PublicAddressGate.of(false, rebinding), Clock.systemUTC(),
                connector, new SslContextFactory.Client())) {
            for (int i = 0; i < 2; i++) {
                assertEquals("refused: http to hooks.example.com: must use https", sender.send("http://hooks.example.com/hook", WEBHOOK).error());
            }
        }
        assertEquals(List.of(), asked);
        assertEquals(List.of(), connector.addresses());
    }

    /** A ClientConnector that records every address a connection is opened to, and connects only on loopback. */
    static final class RecordingConnector extends org.eclipse.jetty.io.ClientConnector {
        private final List<String> addresses = new CopyOnWriteArrayList<>();

        @Override
        public void connect(java.net.SocketAddress address, Map<String, Object> context) {
            addresses.add(address.toString());
            if (((InetSocketAddress) address).getAddress().isLoopbackAddress()) {
                super.connect(address, context);
                return;
            }
            @SuppressWarnings("unchecked")
            var promise = (org.eclipse.jetty.util.Promise<org.eclipse.jetty.io.Connection>) context.get(CONNECTION_PROMISE_CONTEXT_KEY);
            promise.failed(new java.net.ConnectException("this test connects on loopback only"));
        }

        List<String> addresses() {
            return List.copyOf(addresses);
        }
    }
}
