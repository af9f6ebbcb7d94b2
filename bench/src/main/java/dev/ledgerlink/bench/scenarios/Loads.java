package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.proc.ProcStats;
import dev.ledgerlink.bench.proc.Usage;
import dev.ledgerlink.bench.report.Figure;
import java.util.List;
import java.util.function.DoubleSupplier;

/** The shape every closed-loop figure takes: rate, p50, p99, and what the window cost. */
final class Loads {
    private Loads() {}

    record Measured(ClosedLoop.Outcome outcome, Usage.Summary usage) {}

    static Measured measure(BenchConfig c, long serverPid, boolean postgres, int concurrency, ClosedLoop.WorkerFactory f)
            throws InterruptedException {
        return measure(c, serverPid, postgres, concurrency, c.maxRequests(), f);
    }

    static Measured measure(BenchConfig c, long serverPid, boolean postgres, int concurrency, long maxCount, ClosedLoop.WorkerFactory f)
            throws InterruptedException {
        return measure(c, serverPid, postgres ? ProcStats::postgresCpuSeconds : null, concurrency, maxCount, f);
    }

    /** {@code dbCpu}: the database's CPU seconds so far (BenchDatabase#cpu), null for H2. */
    static Measured measure(BenchConfig c, long serverPid, DoubleSupplier dbCpu, int concurrency, long maxCount, ClosedLoop.WorkerFactory f)
            throws InterruptedException {
        // Peak RSS is the peak of the whole loaded period (warm-up too); CPU is the window's average.
        Usage usage = Usage.start(serverPid, dbCpu);
        ClosedLoop.Outcome o = ClosedLoop.run(concurrency, c.warmupUntilJitQuiet(serverPid), usage::windowStarts, c.window(), maxCount, f);
        return new Measured(o, usage.stop());
    }

    /** The window's CPU split and warm-up, as fields of a rate's figure in results.json. */
    static Figure withUsage(Figure f, Usage.Summary u, double warmupSeconds) {
        return f.with("server_cores", u.serverCpu() / u.seconds())
                .with("loadgen_cores", u.loadgenCpu() / u.seconds())
                .with("server_jit_cores", u.serverJitCpu() / u.seconds())
                .with("server_gc_cores", u.serverGcCpu() / u.seconds())
                .with("warmup_seconds", warmupSeconds)
                .with("postgres_cores", u.postgresCpu() / u.seconds())
                .with("machine_busy", u.machineBusy())
                .with("other_processes_cores", u.otherCores());
    }

    /** rate, p50, p99 and peak RSS figures of one measured window. */
    static List<Figure> figures(String scenario, String what, String db, int concurrency, Measured m, String rateTarget,
                                String p99Target) {
        return figures(scenario, what, db, concurrency, m, rateTarget, p99Target, "<= 300");
    }

    /** The same, with the RSS bound beside the figure (none for a peer server, whose memory issue 6 does not bound). */
    static List<Figure> figures(String scenario, String what, String db, int concurrency, Measured m, String rateTarget,
                                String p99Target, String rssTarget) {
        var o = m.outcome();
        String warmed = o.warmupSeconds() > 0 ? String.format("; warm-up %.0f s", o.warmupSeconds()) : "";
        String note = m.usage().describe() + warmed + (o.failed() > 0 ? "; " + o.failed() + " failed, first: " + o.firstFailure() : "");
        String prefix = what + " c" + concurrency;
        Figure rate = withUsage(Figure.measured(scenario, prefix + " per second", db, o.perSecond(), "/s", rateTarget, note)
                .with("ok", o.ok()).with("failed", o.failed()).with("seconds", o.seconds()), m.usage(), o.warmupSeconds());
        return List.of(rate,
                Figure.measured(scenario, prefix + " p50", db, o.latencies().percentileMillis(0.50), "ms", null, ""),
                Figure.measured(scenario, prefix + " p99", db, o.latencies().percentileMillis(0.99), "ms", p99Target, ""),
                Figure.measured(scenario, prefix + " server RSS peak", db, m.usage().peakRssMib(), "MiB", rssTarget, ""));
    }
}
