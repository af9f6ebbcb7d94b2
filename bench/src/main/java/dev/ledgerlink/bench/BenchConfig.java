package dev.ledgerlink.bench;

import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.JitSettled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The bounds of one run. Full: the figures of docs/BENCHMARKS.md (whole run under 10 minutes).
 * Quick: every scenario for about a second with tiny counts, so the test suite keeps the harness working.
 * {@code tracing}: every server runs with traces on, exported to the harness's own collector
 * ({@link dev.ledgerlink.bench.trace.TraceSink}), so the cost of tracing can be measured against a run without.
 */
public record BenchConfig(
        boolean quick,
        List<BenchDatabase.Kind> databases,
        Path serverJar,
        Path outputDir,
        boolean profile,
        Duration warmup,
        Duration warmupMost,
        Duration window,
        List<Integer> tokenConcurrency,
        long maxRequests,
        int codesPerWorker,
        int callbacks,
        int publishers,
        long maxEvents,
        int idleEvents,
        Duration idleGap,
        double isolationRate,
        Duration isolationWindow,
        int bareConcurrency,
        int startups,
        boolean tracing) {

    public static BenchConfig full(List<BenchDatabase.Kind> dbs, Path jar, Path out, boolean profile) {
        return new BenchConfig(false, dbs, jar, out, profile,
                Duration.ofSeconds(3), Duration.ofSeconds(120), Duration.ofSeconds(10), List.of(16, 64), 2_000_000, 150,
                8, 8, 200_000, 100, Duration.ofMillis(50), 40, Duration.ofSeconds(12), 64, 3, false);
    }

    public static BenchConfig quick(List<BenchDatabase.Kind> dbs, Path jar, Path out) {
        return quick(dbs, jar, out, false);
    }

    public static BenchConfig quick(List<BenchDatabase.Kind> dbs, Path jar, Path out, boolean profile) {
        return new BenchConfig(true, dbs, jar, out, profile,
                Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofSeconds(1), List.of(4), 5_000, 10,
                2, 2, 200, 5, Duration.ofMillis(20), 10, Duration.ofSeconds(2), 4, 1, false);
    }

    /** This run's warm-up for a load on the JVM {@code pid}: at least {@link #warmup}, on while its JIT is busy, at most {@link #warmupMost}. */
    public ClosedLoop.Warmup warmupUntilJitQuiet(long pid) {
        return new ClosedLoop.Warmup(warmup, warmupMost, new JitSettled(pid));
    }

    /** The same bounds with another, fixed warm-up (none, where each request consumes prepared state). */
    public BenchConfig withWarmup(Duration w) {
        return withLoad(w, w, window, tokenConcurrency);
    }

    /**
     * The same bounds with another warm-up (at least {@code w}, then until the server's JIT is quiet, at
     * most {@code most}), window and set of concurrencies (the peer comparison's).
     */
    public BenchConfig withLoad(Duration w, Duration most, Duration win, List<Integer> concurrency) {
        return new BenchConfig(quick, databases, serverJar, outputDir, profile, w, most, win, concurrency, maxRequests,
                codesPerWorker, callbacks, publishers, maxEvents, idleEvents, idleGap, isolationRate, isolationWindow,
                bareConcurrency, startups, tracing);
    }

    /** The same bounds, every server with traces on (tracing.otlp-endpoint at the harness's collector). */
    public BenchConfig withTracing() {
        return new BenchConfig(quick, databases, serverJar, outputDir, profile, warmup, warmupMost, window, tokenConcurrency, maxRequests,
                codesPerWorker, callbacks, publishers, maxEvents, idleEvents, idleGap, isolationRate, isolationWindow,
                bareConcurrency, startups, true);
    }
}
