package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.delivery.ReceivedLog;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.proc.Usage;
import dev.ledgerlink.bench.report.Figure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 3: isolation. Two runs at the same fixed publish rate (open loop) on one server: first
 * 2N healthy callbacks (event "client"), then N healthy and N that never answer until the delivery
 * timeout (event "project"). The healthy endpoints' publish-to-receive p99 of the second run is
 * compared with the first; the decision is that a dead endpoint never delays another one.
 */
public final class IsolationScenario implements Scenario {
    @Override
    public String name() { return "isolation"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        List<Figure> out = new ArrayList<>();
        for (BenchDatabase.Kind kind : run.config().databases()) {
            try (BenchRun.Stage stage = run.stage(kind); DeliveryRig rig = DeliveryRig.prepare(stage)) {
                try {
                    out.addAll(runOn(run.config(), stage, rig));
                } catch (Exception e) {
                    e.printStackTrace();
                    out.add(Figure.notMeasured(name(), "(scenario failed)", kind.label(), "", null, e.toString()));
                }
            }
        }
        return out;
    }

    private List<Figure> runOn(BenchConfig c, BenchRun.Stage stage, DeliveryRig rig) throws Exception {
        String db = stage.label();
        // Full runs keep the decided 10 s attempt timeout; the quick test shortens it so the server stops promptly.
        if (c.quick()) stage.settings.put("delivery.timeout", "PT1S");
        ServerProcess server = stage.start();
        String missing = rig.connect(server);
        if (missing != null) {
            return List.of(Figure.notMeasured(name(), "healthy p99 with half hanging / all healthy", db, "x", "<= 1.5", missing));
        }
        int n = c.callbacks();
        for (int i = 0; i < 2 * n; i++) rig.register("client", "/hook/" + i);
        for (int i = 0; i < n; i++) rig.register("project", "/hook/" + (2 * n + i));
        for (int i = 0; i < n; i++) rig.register("project", "/hang/" + i);

        Result healthy = phase(c, rig, server, stage, "allhealthy", "client.create", 2L * n);
        rig.receiver.resetHangingPeak();
        stage.beginProfile("isolation-halfhanging");
        Result half = phase(c, rig, server, stage, "halfhanging", "project.create", n);
        stage.endProfile();
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(name(), "healthy p99, all " + 2 * n + " endpoints healthy", db, healthy.group.p(0.99), "ms", null,
                healthy.describe(c)));
        out.add(Figure.measured(name(), "healthy p99, " + n + " of " + 2 * n + " endpoints hanging", db, half.group.p(0.99), "ms", null,
                half.describe(c) + "; hanging endpoints were sent " + rig.log.group("halfhanging:hang").count()));
        out.add(Figure.measured(name(), "healthy p99 with half hanging / all healthy", db, half.group.p(0.99) / healthy.group.p(0.99), "x",
                "<= 1.5", "p50 " + DeliveryScenario.round(healthy.group.p(0.5)) + " -> " + DeliveryScenario.round(half.group.p(0.5)) + " ms"));
        out.add(Figure.measured(name(), "peak attempts held open by hanging endpoints", db, rig.receiver.hangingPeak(), "requests", null,
                "requests the receiver held unanswered at once on /hang/ (each holds one of the engine's delivery.concurrency slots until its timeout)"));
        out.add(Figure.measured(name(), "server RSS peak with hanging endpoints", db, half.usage.peakRssMib(), "MiB", "<= 300", ""));
        return out;
    }

    record Result(ReceivedLog.Group group, long events, long expected, boolean drained, Usage.Summary usage) {
        String describe(BenchConfig c) {
            return String.format("%d events at %.0f/s, healthy received %d of %d%s; %s", events, c.isolationRate(), group.count(), expected,
                    drained ? "" : " (NOT all)", usage.describe());
        }
    }

    /** Publishes at a fixed rate for the window (open loop: a slow answer does not slow the next publish). */
    private Result phase(BenchConfig c, DeliveryRig rig, ServerProcess server, BenchRun.Stage stage, String phase, String event,
                         long healthyPerEvent) throws Exception {
        rig.log.phase(phase);
        ReceivedLog.Group group = rig.log.group(phase + ":hook");
        Usage usage = Usage.start(server.pid(), stage.postgres());
        long gapNanos = (long) (1e9 / c.isolationRate());
        long start = System.nanoTime();
        long end = start + c.isolationWindow().toNanos();
        long events = 0;
        try (DeliveryRig.Publisher p = rig.publisher()) {
            for (long next = start; next < end; next += gapNanos) {
                long wait = next - System.nanoTime();
                if (wait > 0) Thread.sleep(Duration.ofNanos(wait));
                p.publish(event, DeliveryScenario.OBJECT_IDS.incrementAndGet());
                events++;
            }
        }
        long expected = events * healthyPerEvent;
        boolean drained = DeliveryScenario.awaitCount(group, expected, Duration.ofSeconds(c.quick() ? 10 : 30));
        return new Result(group, events, expected, drained, usage.stop());
    }
}
