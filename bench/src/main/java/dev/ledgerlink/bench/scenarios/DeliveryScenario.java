package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.delivery.ReceivedLog;
import dev.ledgerlink.bench.http.LoopbackReceiver;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.proc.Usage;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 2: events published and fanned out to N verified callbacks on the loopback receiver;
 * deliveries per second and publish-to-receive p50/p99, when idle (one event at a time) and under a
 * closed loop of publishers. Beside it, the bare loop: the same signed form POSTs sent with the JDK
 * HttpClient to the same receiver, no persistence, as the ratio engine/bare.
 */
public final class DeliveryScenario implements Scenario {
    static final AtomicLong OBJECT_IDS = new AtomicLong(1_000_000);

    @Override
    public String name() { return "delivery"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        BenchConfig c = run.config();
        List<Figure> out = new ArrayList<>();
        double bare = bareLoop(c, out);
        for (BenchDatabase.Kind kind : c.databases()) {
            try (BenchRun.Stage stage = run.stage(kind); DeliveryRig rig = DeliveryRig.prepare(stage)) {
                try {
                    out.addAll(engine(c, stage, rig, bare));
                } catch (Exception e) {
                    e.printStackTrace();
                    out.add(Figure.notMeasured(name(), "(scenario failed)", kind.label(), "", null, e.toString()));
                }
            }
        }
        return out;
    }

    /** The bare loop: what this machine's JDK HttpClient does with the same signed requests and no store. */
    private double bareLoop(BenchConfig c, List<Figure> out) throws Exception {
        ReceivedLog log = new ReceivedLog();
        log.phase("bare");
        try (LoopbackReceiver receiver = new LoopbackReceiver(log);
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                     .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER)
                     .executor(Executors.newVirtualThreadPerTaskExecutor()).build()) {
            List<String> codes = new ArrayList<>();
            for (int i = 0; i < c.callbacks(); i++) {
                String code = RandomTokens.urlSafe(22);
                codes.add(code);
                log.codeFor("/bare/" + i, code);
            }
            String accountId = "bench";
            Usage usage = Usage.start(ProcessHandle.current().pid(), false);
            ClosedLoop.Outcome o = ClosedLoop.run(c.bareConcurrency(), c.warmupUntilJitQuiet(ProcessHandle.current().pid()), usage::windowStarts, c.window(), c.maxRequests(), w -> () -> {
                long id = OBJECT_IDS.incrementAndGet();
                int endpoint = (int) (id % codes.size());
                FormParams params = FormParams.notification("invoice.create", id, accountId, 1);
                log.published(id, System.nanoTime());
                HttpRequest req = HttpRequest.newBuilder(URI.create(receiver.url("/bare/" + endpoint)))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header(ServiceSignature.HEADER, ServiceSignature.sign(codes.get(endpoint), params))
                        .POST(HttpRequest.BodyPublishers.ofString(params.formEncoded())).build();
                return http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2;
            });
            Usage.Summary u = usage.stop();
            String note = String.format("JDK HttpClient, HTTP/1.1, %d virtual threads, %d endpoints; sender and receiver share this JVM"
                            + " (%.2f cores, JIT compiler %.2f); warm-up %.0f s; bad signatures %d",
                    c.bareConcurrency(), c.callbacks(), u.serverCpu() / u.seconds(), u.serverJitCpu() / u.seconds(), o.warmupSeconds(),
                    log.badSignatures());
            out.add(Figure.measured(name(), "bare HttpClient loop signed sends per second", "-", o.perSecond(), "/s", null, note)
                    .with("ok", o.ok()).with("failed", o.failed()).with("received", log.group("bare:bare").count()));
            out.add(Figure.measured(name(), "bare HttpClient loop send p50", "-", o.latencies().percentileMillis(0.5), "ms", null, ""));
            out.add(Figure.measured(name(), "bare HttpClient loop send p99", "-", o.latencies().percentileMillis(0.99), "ms", null, ""));
            return o.perSecond();
        }
    }

    private List<Figure> engine(BenchConfig c, BenchRun.Stage stage, DeliveryRig rig, double bare) throws Exception {
        String db = stage.label();
        List<Figure> out = new ArrayList<>();
        ServerProcess server = stage.start();
        String missing = rig.connect(server);
        if (missing != null) {
            out.add(Figure.notMeasured(name(), "deliveries per second (" + c.callbacks() + " callbacks)", db, "/s", ">= 5,000", missing));
            out.add(Figure.notMeasured(name(), "engine / bare ratio", db, "x", ">= 0.60", missing));
            out.add(Figure.notMeasured(name(), "publish-to-receive p99 when idle", db, "ms", "<= 100", missing));
            return out;
        }
        for (int i = 0; i < c.callbacks(); i++) rig.register("invoice", "/hook/" + i);

        // Idle: one event at a time, a gap between, each fanned out to every callback.
        rig.log.phase("idle");
        try (DeliveryRig.Publisher p = rig.publisher()) {
            for (int i = 0; i < c.idleEvents(); i++) {
                p.publish("invoice.create", OBJECT_IDS.incrementAndGet());
                Thread.sleep(c.idleGap().toMillis());
            }
        }
        ReceivedLog.Group idle = rig.log.group("idle:hook");
        awaitCount(idle, (long) c.idleEvents() * c.callbacks(), Duration.ofSeconds(c.quick() ? 10 : 20));
        out.add(Figure.measured(name(), "publish-to-receive p50 when idle", db, idle.p(0.5), "ms", null,
                c.idleEvents() + " events " + c.idleGap().toMillis() + " ms apart x " + c.callbacks() + " callbacks; received " + idle.count()));
        out.add(Figure.measured(name(), "publish-to-receive p99 when idle", db, idle.p(0.99), "ms", "<= 100", ""));

        // Warm-up: the same publishers until the server's JIT is quiet (bounded), drained before the
        // measured phase so none of its deliveries is counted there.
        // An engine slower than the publishers builds a backlog during a long warm-up; if it is not
        // drained in time, the window competes with it, and the note says so.
        double warmed = 0;
        String warmDrained = "drained";
        if (!c.warmupMost().isZero()) {
            rig.log.phase("warm");
            long warmStart = System.nanoTime();
            ClosedLoop.Warmed w = ClosedLoop.warmUp(c.publishers(), c.warmupUntilJitQuiet(server.pid()), publishers(rig));
            ReceivedLog.Group warm = rig.log.group("warm:hook");
            if (!awaitCount(warm, w.ok() * c.callbacks(), Duration.ofSeconds(c.quick() ? 10 : 120))) {
                warmDrained = "NOT drained (" + warm.count() + " of " + w.ok() * c.callbacks()
                        + " warm-up deliveries received when the window began: the figure is of a backlog, not of the load)";
            }
            warmed = (System.nanoTime() - warmStart) / 1e9;
        }

        // Loaded: a closed loop of publishers, then the queue is drained (bounded) and timed to the last receive.
        rig.log.phase("load");
        ReceivedLog.Group load = rig.log.group("load:hook");
        stage.beginProfile("delivery-load");
        Usage usage = Usage.start(server.pid(), stage.postgres());
        long start = System.nanoTime();
        ClosedLoop.Outcome published = ClosedLoop.run(c.publishers(), Duration.ZERO, c.window(), c.maxEvents(), publishers(rig));
        long expected = published.ok() * c.callbacks();
        boolean drained = awaitCount(load, expected, Duration.ofSeconds(c.quick() ? 10 : 60));
        Usage.Summary u = usage.stop();
        stage.endProfile();
        double seconds = (load.lastNanos() - start) / 1e9;
        double rate = load.count() / Math.max(seconds, 1e-9);
        String note = String.format("%d events x %d callbacks in %.1f s (%s); %s; warm-up %.0f s, %s; bad signatures %d",
                published.ok(), c.callbacks(), seconds, drained ? "all received" : "NOT all received: " + load.count() + " of " + expected,
                u.describe(), warmed, warmDrained, rig.log.badSignatures());
        out.add(Loads.withUsage(Figure.measured(name(), "deliveries per second (" + c.callbacks() + " callbacks, " + c.publishers()
                + " publishers)", db, rate, "/s", ">= 5,000", note).with("received", load.count()).with("expected", expected)
                .with("events_published_per_second", published.perSecond()), u, warmed));
        out.add(Figure.measured(name(), "events published per second (acknowledged, durable)", db, published.perSecond(), "/s", null,
                "publish p50 " + round(published.latencies().percentileMillis(0.5)) + " ms, p99 " + round(published.latencies().percentileMillis(0.99)) + " ms"));
        out.add(Figure.measured(name(), "engine / bare ratio", db, bare > 0 ? rate / bare : Double.NaN, "x", ">= 0.60", ""));
        out.add(Figure.measured(name(), "publish-to-receive p50 under load", db, load.p(0.5), "ms", null, ""));
        out.add(Figure.measured(name(), "publish-to-receive p99 under load", db, load.p(0.99), "ms", null, ""));
        out.add(Figure.measured(name(), "server RSS peak under delivery load", db, u.peakRssMib(), "MiB", "<= 300", ""));
        return out;
    }

    /** Closed-loop publishers of invoice.create, one connection each. */
    private static ClosedLoop.WorkerFactory publishers(DeliveryRig rig) {
        return w -> {
            DeliveryRig.Publisher p = rig.publisher();
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception { return p.publish("invoice.create", OBJECT_IDS.incrementAndGet()); }
                public void close() { p.close(); }
            };
        };
    }

    static boolean awaitCount(ReceivedLog.Group g, long expected, Duration bound) throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (g.count() < expected && System.nanoTime() < end) Thread.sleep(20);
        return g.count() >= expected;
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
