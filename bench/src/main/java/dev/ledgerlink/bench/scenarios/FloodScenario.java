package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.flood.ConnectionFlood;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.Latencies;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 33, "Connection floods": healthy clients beside a flood of hostile connections to the same API
 * port. The healthy ones are {@link #HEALTHY} refresh chains in a closed loop over keep-alive
 * connections, and a probe that opens a new connection for each GET /healthz (what a client arriving
 * during the flood meets); the flood is 2,000 idle connections, 500 request heads trickled in a header
 * line every 5 s (slowloris) and 500 bodies trickled a byte every 5 s, each opened again as soon as the
 * server closes it, so the flood keeps its size. Measured first without the flood, then under it, for
 * a window long enough for every limit to act (40 s: the body timeout's 30 s), with the server's
 * default limits (docs/configuration.md, http.*). Nothing is asserted here (ConnectionFloodTest in the
 * suite asserts behaviour and counts); the healthy p99 and the server's memory under the flood are
 * docs/BENCHMARKS.md's figures.
 */
public final class FloodScenario implements Scenario {
    static final int HEALTHY = 8;
    private static final Duration PROBE_EVERY = Duration.ofMillis(100);

    @Override
    public String name() { return "flood"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, stage -> runOn(run.config(), stage));
    }

    /** The flood of a full run, and a small one for the quick run, with limits short enough to act in its window. */
    static ConnectionFlood.Plan plan(BenchConfig c) {
        return c.quick() ? new ConnectionFlood.Plan(100, 10, 10, Duration.ofMillis(200), true)
                : new ConnectionFlood.Plan(2_000, 500, 500, Duration.ofSeconds(5), true);
    }

    private List<Figure> runOn(BenchConfig c, BenchRun.Stage stage) throws Exception {
        String db = stage.label();
        ConnectionFlood.Plan plan = plan(c);
        if (c.quick()) {
            for (String limit : List.of("http.idle-timeout", "http.header-timeout", "http.body-timeout")) stage.settings.put(limit, "PT1S");
        }
        TokenEndpointScenario.Prepared prepared = TokenEndpointScenario.prepareChains(stage, HEALTHY);
        ServerProcess server = stage.start();
        RefreshChains chains = prepared.chains(server);

        Phase calm = phase(c, stage, server, chains, c.window());
        Duration floodWindow = c.quick() ? c.window() : max(c.window(), Duration.ofSeconds(40));
        Phase flooded;
        long[] closed = new long[ConnectionFlood.Kind.values().length];
        long connectFailures;
        try (ConnectionFlood flood = ConnectionFlood.start("127.0.0.1", server.port(), plan)) {
            flooded = phase(c, stage, server, chains, floodWindow);
            for (ConnectionFlood.Kind k : ConnectionFlood.Kind.values()) closed[k.ordinal()] = flood.closedByServer(k);
            connectFailures = flood.connectFailures();
        }

        List<Figure> out = new ArrayList<>();
        String floodNote = String.format("%d idle, %d slow heads, %d slow bodies (a piece every %s), reopened when closed",
                plan.idle(), plan.slowHeaders(), plan.halfBodies(), plan.trickle());
        out.addAll(Loads.figures(name(), "healthy refresh grants, no flood,", db, HEALTHY, calm.load, null, null));
        out.addAll(Loads.figures(name(), "healthy refresh grants, under the flood,", db, HEALTHY, flooded.load, null, null));
        double before = calm.load.outcome().latencies().percentileMillis(0.99);
        double during = flooded.load.outcome().latencies().percentileMillis(0.99);
        out.add(Figure.measured(name(), "healthy refresh p99 under the flood / no flood", db, during / before, "x", null, floodNote));
        out.add(Figure.measured(name(), "new connection GET /healthz p99, no flood", db, calm.probe.percentileMillis(0.99), "ms", null,
                calm.probeNote()));
        out.add(Figure.measured(name(), "new connection GET /healthz p99, under the flood", db, flooded.probe.percentileMillis(0.99), "ms",
                null, flooded.probeNote()));
        out.add(Figure.measured(name(), "healthy requests failed under the flood", db,
                flooded.load.outcome().failed() + flooded.probeFailed.get(), "requests", "0",
                "refresh grants " + flooded.load.outcome().failed() + ", new-connection probes " + flooded.probeFailed.get()
                        + (flooded.load.outcome().failed() > 0 ? "; first: " + flooded.load.outcome().firstFailure() : "")));
        out.add(Figure.measured(name(), "server RSS peak under the flood", db, flooded.load.usage().peakRssMib(), "MiB", "<= 300",
                floodNote + "; " + flooded.load.usage().describe()));
        out.add(Figure.measured(name(), "flood connections the server closed", db,
                closed[0] + closed[1] + closed[2], "connections", null, String.format(
                        "in %.0f s: idle %d (http.idle-timeout), slow heads %d (http.header-timeout), slow bodies %d (http.body-timeout); "
                                + "connects that failed %d", flooded.load.outcome().seconds(), closed[0], closed[1], closed[2], connectFailures)));
        return out;
    }

    /** One measured window of the healthy load, with the new-connection probe beside it. */
    private record Phase(Loads.Measured load, Latencies probe, AtomicLong probeFailed) {
        String probeNote() {
            return probe.size() + " probes, one every " + PROBE_EVERY.toMillis() + " ms" + (probeFailed.get() > 0 ? ", " + probeFailed.get() + " failed" : "");
        }
    }

    /** The healthy load for {@code window} (after its warm-up), and the probe meanwhile (warm-up included). */
    private Phase phase(BenchConfig c, BenchRun.Stage stage, ServerProcess server, RefreshChains chains, Duration window) throws Exception {
        Latencies probe = new Latencies(100_000);
        AtomicLong probeFailed = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread prober = Thread.ofVirtual().start(() -> {
            while (!stop.get()) {
                long t0 = System.nanoTime();
                try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
                    if (http.get("/healthz", Map.of("Connection", "close")).status() == 200) probe.add(System.nanoTime() - t0);
                    else probeFailed.incrementAndGet();
                } catch (Exception e) {
                    probeFailed.incrementAndGet();
                }
                try {
                    Thread.sleep(PROBE_EVERY);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            BenchConfig bounds = c.withLoad(c.warmup(), c.warmupMost(), window, List.of(HEALTHY));
            return new Phase(Loads.measure(bounds, server.pid(), stage.postgres(), HEALTHY, chains), probe, probeFailed);
        } finally {
            stop.set(true);
            prober.join();
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
