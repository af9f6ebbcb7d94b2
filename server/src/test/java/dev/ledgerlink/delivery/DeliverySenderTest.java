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
import org.junit.jupiter.api.Test;

/** How DeliverySender waits for a receiver, against a real one on loopback. */
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
        try (DeliverySender sender = new DeliverySender(Duration.ofSeconds(30), PublicAddressGate.of(true, PublicAddressGate.SYSTEM), Clock.systemUTC());
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
        try (DeliverySender without = new DeliverySender(Duration.ofSeconds(5), PublicAddressGate.of(true, PublicAddressGate.SYSTEM), Clock.systemUTC());
             DeliverySender with = new DeliverySender(Duration.ofSeconds(5), PublicAddressGate.of(true, java.util.Set.of("app"), PublicAddressGate.SYSTEM),
                     Clock.systemUTC())) {
            AttemptOutcome refused = without.send("http://app:9/hook", request);
            assertEquals("refused: http to app: must use https (http is allowed only to loopback hosts and to "
                    + "host.docker.internal, host.containers.internal, host.testcontainers.internal in development mode)", refused.error());
            AttemptOutcome tried = with.send("http://app.invalid:9/hook", request);
            assertTrue(tried.error().startsWith("refused: http to app.invalid"), tried.error());
            AttemptOutcome byName = with.send("http://app:9/hook", request);
            assertNull(byName.status());
            assertFalse(byName.error().startsWith("refused"), "called by its name: " + byName.error());
        }
    }
}
