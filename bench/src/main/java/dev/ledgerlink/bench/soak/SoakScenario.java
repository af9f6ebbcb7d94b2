package dev.ledgerlink.bench.soak;

import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Issue 33, "Soak": the mixed load of {@link SoakLoad} for {@code --minutes N} (default 30) on each
 * database, the server read every minute ({@link SoakSample}: RSS, heap after a full collection,
 * threads, open files, pool connections, the rows of every table the load writes, the database's size),
 * each reading printed as it is taken and written to {@code soak-<db>.csv}. The figures are each
 * reading's value after the warm-up and at the end, and its slope per hour after the warm-up (least
 * squares over the minutes): the target is no growth beyond what retention bounds. Retention runs as in
 * production but faster (every minute, rows kept 5 minutes, access tokens living 5 minutes) so that
 * its bound is reached within the run; deliveries to the failing callback stay pending for their
 * retries (45 h), and the hanging one's attempts end at delivery.timeout (10 s), so pending deliveries
 * are the one count expected to grow, by the failing rate. After the load stops the server is read once
 * more, after a minute's rest.
 */
public final class SoakScenario implements Scenario {
    /** The soak's retention and token settings (docs/BENCHMARKS.md, "Soak"). */
    static final Map<String, String> SETTINGS = Map.of(
            "retention.interval", "PT1M", "retention.deliveries", "PT5M", "retention.events", "PT5M", "retention.tokens", "PT5M",
            "oauth.access-token-ttl", "PT5M");
    private final Duration length;
    private final Duration every;

    /** @param length how long the load runs; {@code every}: how often the server is read (a minute, except in tests) */
    public SoakScenario(Duration length, Duration every) {
        this.length = length;
        this.every = every;
    }

    @Override
    public String name() { return "soak"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, stage -> runOn(stage, run.config().outputDir()));
    }

    private List<Figure> runOn(BenchRun.Stage stage, Path outputDir) throws Exception {
        stage.settings.putAll(SETTINGS);
        SoakLoad.Prepared prepared = SoakLoad.prepare(stage, SoakLoad.Rates.FULL);
        try (var rig = prepared.rig()) {
            ServerProcess server = stage.start();
            Path csv = outputDir.resolve("soak-" + stage.label() + ".csv");
            Files.writeString(csv, SoakSample.csvHeader() + ",refresh_ok,refresh_failed,exchange_ok,exchange_failed,publish_ok,publish_failed,"
                    + "tail_streams,tail_attempts,tail_failed\n");
            List<SoakSample> samples = new ArrayList<>();
            samples.add(record(csv, SoakSample.take(0, server, stage.db, true), null));
            long t0 = System.nanoTime();
            SoakLoad load = SoakLoad.start(SoakLoad.connect(prepared, server));
            try {
                for (long next = t0 + every.toNanos(); next <= t0 + length.toNanos(); next += every.toNanos()) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) Thread.sleep(Duration.ofNanos(wait));
                    double minute = (System.nanoTime() - t0) / 60e9;
                    samples.add(record(csv, SoakSample.take(minute, server, stage.db, true), load));
                }
            } finally {
                load.close();
            }
            Thread.sleep(Duration.ofMinutes(1).compareTo(every) < 0 ? Duration.ofMinutes(1) : every);
            SoakSample rested = record(csv, SoakSample.take((System.nanoTime() - t0) / 60e9, server, stage.db, true), load);
            return figures(stage.label(), samples, rested, load, csv);
        }
    }

    private static SoakSample record(Path csv, SoakSample s, SoakLoad load) throws IOException {
        StringBuilder line = new StringBuilder(s.csvLine());
        if (load != null) {
            for (SoakLoad.Count c : load.counts().values()) line.append(',').append(c.ok()).append(',').append(c.failed());
            for (long n : load.tail()) line.append(',').append(n);
        } else {
            line.append(",0,0,0,0,0,0,0,0,0");
        }
        Files.writeString(csv, line + "\n", StandardOpenOption.APPEND);
        System.out.println("bench: soak " + line);
        return s;
    }

    private List<Figure> figures(String db, List<SoakSample> samples, SoakSample rested, SoakLoad load, Path csv) {
        // Rows reach what retention keeps after a quarter hour (access tokens live 5 min and are kept 5 more, codes 10 + 5).
        double warmup = Math.min(15, length.toMinutes() / 4.0);
        List<SoakSample> steady = samples.stream().filter(s -> s.minute() >= warmup - 1e-9).toList();
        if (steady.size() < 2) steady = samples.subList(Math.max(0, samples.size() - 2), samples.size());
        Map<String, ToDoubleFunction<SoakSample>> readings = new LinkedHashMap<>();
        readings.put("RSS (MiB)", SoakSample::rssMib);
        readings.put("heap after GC (MiB)", SoakSample::heapAfterGcMib);
        readings.put("threads", SoakSample::threads);
        readings.put("open files", SoakSample::openFiles);
        readings.put("pool connections", SoakSample::poolConnections);
        for (String t : SoakSample.TABLES) readings.put("rows " + t, s -> s.rows().getOrDefault(t, -1L));
        readings.put("database size (MiB)", SoakSample::databaseMib);
        List<Figure> out = new ArrayList<>();
        SoakSample first = steady.getFirst();
        SoakSample last = steady.getLast();
        String span = String.format("minutes %.0f to %.0f of %d (warm-up %.0f min); readings in %s", first.minute(), last.minute(),
                length.toMinutes(), warmup, csv);
        for (var r : readings.entrySet()) {
            double slope = slopePerHour(steady, r.getValue());
            out.add(Figure.measured(name(), r.getKey() + ", slope per hour after warm-up", db, slope, "/h", null,
                    String.format("%.1f after warm-up, %.1f at the end, %.1f after a minute's rest; %s", r.getValue().applyAsDouble(first),
                            r.getValue().applyAsDouble(last), r.getValue().applyAsDouble(rested), span)));
        }
        out.add(Figure.measured(name(), "peak RSS", db, samples.stream().mapToDouble(SoakSample::rssMib).max().orElse(-1), "MiB", "<= 300", span));
        for (var c : load.counts().entrySet()) {
            out.add(Figure.measured(name(), c.getKey() + " answered as expected", db, c.getValue().ok(), "requests", null,
                    c.getValue().failed() + " not" + (c.getValue().failed() > 0 ? "; first: " + c.getValue().firstFailure() : "")));
        }
        long[] tail = load.tail();
        out.add(Figure.measured(name(), "console live tail: attempts streamed", db, tail[1], "events", null,
                tail[0] + " streams opened, " + tail[2] + " failed"));
        return out;
    }

    /** Least-squares slope of a reading against time, per hour. */
    static double slopePerHour(List<SoakSample> samples, ToDoubleFunction<SoakSample> reading) {
        double n = samples.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (SoakSample s : samples) {
            double x = s.minute() / 60.0, y = reading.applyAsDouble(s);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double d = n * sxx - sx * sx;
        return d == 0 ? 0 : (n * sxy - sx * sy) / d;
    }
}
