package dev.ledgerlink.bench.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.flood.ConnectionFlood;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * issue 33, "Connection floods", in the suite: a server process (the launcher's JVM options) with its
 * limits shortened (idle 8 s, headers and bodies 2 s), 2,000 idle connections, 200 request heads and 200
 * bodies trickled in every 500 ms (well inside the idle timeout, so only their own limits end them), while healthy
 * clients refresh tokens over keep-alive connections and open a new connection for each GET /healthz.
 * Every healthy request is answered 200, the server closes every one of the flood's connections by
 * itself (each kind by its own limit, as its counters say), and logs no error. Counts only: the
 * healthy clients' latency and the server's memory under the full flood are the flood scenario's
 * figures (docs/BENCHMARKS.md), never asserted.
 */
@Execution(ExecutionMode.CONCURRENT)
class ConnectionFloodTest {
    private static final ConnectionFlood.Plan FLOOD = new ConnectionFlood.Plan(2_000, 200, 200, Duration.ofMillis(500), false);

    @Test
    void healthyClientsAreServedWhileTheServerShedsTheFlood(@TempDir Path dir) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(BenchDatabase.Kind.H2), null, dir);
        try (BenchRun.Stage stage = new BenchRun(config).stage(BenchDatabase.Kind.H2)) {
            // The slow connections send a piece every 500 ms, so only their own limit can end them, not a late idle timeout.
            stage.settings.put("http.idle-timeout", "PT8S");
            stage.settings.put("http.header-timeout", "PT2S");
            stage.settings.put("http.body-timeout", "PT2S");
            TokenEndpointScenario.Prepared prepared = TokenEndpointScenario.prepareChains(stage, 2);
            ServerProcess server = stage.start();
            RefreshChains chains = prepared.chains(server);

            AtomicLong ok = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> healthy = List.of(
                    Thread.ofVirtual().start(() -> refreshUntil(stop, chains, 0, ok, failed)),
                    Thread.ofVirtual().start(() -> refreshUntil(stop, chains, 1, ok, failed)),
                    Thread.ofVirtual().start(() -> probeUntil(stop, server.port(), ok, failed)));
            long t0 = System.nanoTime();
            try (ConnectionFlood flood = ConnectionFlood.start("127.0.0.1", server.port(), FLOOD)) {
                long before = ok.get();
                System.out.printf("flood of %d connections open after %.1f s%n", FLOOD.idle() + FLOOD.slowHeaders() + FLOOD.halfBodies(),
                        (System.nanoTime() - t0) / 1e9);
                await("the server closed every connection of the flood", () -> closedAll(flood));
                System.out.printf("every connection closed by the server after %.1f s; healthy requests answered meanwhile %d%n",
                        (System.nanoTime() - t0) / 1e9, ok.get() - before);
                long servedDuringFlood = ok.get() - before;
                stop.set(true);
                for (Thread t : healthy) t.join(Duration.ofSeconds(30));

                assertEquals(0, flood.connectFailures(), "every connection of the flood was accepted");
                assertEquals(0, failed.get(), "healthy requests that failed");
                assertTrue(servedDuringFlood >= 20, "healthy requests answered while the flood was held: " + servedDuringFlood);
                assertEquals(0, flood.answered(ConnectionFlood.Kind.IDLE) + flood.answered(ConnectionFlood.Kind.SLOW_HEADERS),
                        "nothing was answered to a connection that never sent a whole request");
            }
            String metrics;
            try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
                metrics = http.get("/metrics", Map.of()).text();
            }
            assertEquals(200.0, metric(metrics, "ledgerlink_http_slow_clients_closed_total{phase=\"headers\"}"), "heads cut by http.header-timeout");
            assertEquals(200.0, metric(metrics, "ledgerlink_http_slow_clients_closed_total{phase=\"body\"}"), "bodies cut by http.body-timeout");
            String log = Files.readString(server.log());
            assertTrue(log.lines().noneMatch(l -> l.contains(" ERROR ") || l.startsWith("\tat ")), "no error or stack trace in the log:\n" + log);
        }
    }

    private static boolean closedAll(ConnectionFlood flood) {
        return flood.closedByServer(ConnectionFlood.Kind.IDLE) == FLOOD.idle()
                && flood.closedByServer(ConnectionFlood.Kind.SLOW_HEADERS) == FLOOD.slowHeaders()
                && flood.closedByServer(ConnectionFlood.Kind.HALF_BODY) == FLOOD.halfBodies();
    }

    private static void refreshUntil(AtomicBoolean stop, RefreshChains chains, int chain, AtomicLong ok, AtomicLong failed) {
        try (var worker = chains.create(chain)) {
            while (!stop.get()) {
                try {
                    if (worker.call()) ok.incrementAndGet();
                    else failed.incrementAndGet();
                } catch (Exception e) {
                    failed.incrementAndGet();
                }
                Thread.sleep(20);
            }
        } catch (Exception e) {
            failed.incrementAndGet();
        }
    }

    private static void probeUntil(AtomicBoolean stop, int port, AtomicLong ok, AtomicLong failed) {
        while (!stop.get()) {
            try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
                if (http.get("/healthz", Map.of("Connection", "close")).status() == 200) ok.incrementAndGet();
                else failed.incrementAndGet();
                Thread.sleep(50);
            } catch (Exception e) {
                failed.incrementAndGet();
            }
        }
    }

    private static double metric(String text, String series) {
        return text.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElse(-1);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("gave up waiting until " + what);
            Thread.sleep(100);
        }
    }
}
