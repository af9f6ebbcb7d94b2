package dev.ledgerlink.bench.costs;

import dev.ledgerlink.bench.report.Figure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * docs/sizing.md's model: a load's CPU and write volume are the sum, over its operations, of rate times
 * each operation's cost. {@link #guide} turns the costs into the guide's rows (per 1,000 refresh grants
 * a second, per 1,000 deliveries a second, ...); {@link #check} sets a mixed load's measured CPU beside
 * the model's prediction for it, which issue 45 bounds at 25%.
 */
public final class SizingModel {
    /** Issue 45's bound on the prediction: within 25% of the measurement. */
    static final double TOLERANCE = 0.25;
    /** Deliveries per publish in the guide's "per 1,000 deliveries" row (the mixed load's fan-out). */
    static final int GUIDE_FAN_OUT = 3;

    private SizingModel() {}

    /** A delivery answered at the first attempt, with its share of a publish to {@code fanOut} subscribers. */
    static Cost delivery(Map<String, Cost> c, int fanOut) {
        return c.get("publish, per event").times(1.0 / fanOut).plus(c.get("publish, per subscriber (its delivery queued)"))
                .plus(c.get("delivery attempt, answered"));
    }

    /** A publish to {@code subscribers} answered subscribers, their attempts included. */
    static Cost publish(Map<String, Cost> c, int subscribers) {
        return c.get("publish, per event").plus(c.get("publish, per subscriber (its delivery queued)").plus(c.get("delivery attempt, answered"))
                .times(subscribers));
    }

    public static List<Figure> guide(String scenario, String db, Map<String, Cost> production, Map<String, Cost> development) {
        List<Figure> out = new ArrayList<>();
        if (production.containsKey("refresh grant")) out.addAll(row(scenario, db, "per 1,000 refresh grants/s", production.get("refresh grant"), 1000));
        if (production.containsKey("introspection")) out.addAll(row(scenario, db, "per 1,000 introspections/s", production.get("introspection"), 1000));
        if (production.containsKey("sign-in and code exchange")) {
            out.addAll(row(scenario, db, "per 10 sign-ins with a code exchange/s", production.get("sign-in and code exchange"), 10));
        }
        if (development.containsKey("delivery attempt, answered")) {
            out.addAll(row(scenario, db, "per 1,000 deliveries/s (answered, " + GUIDE_FAN_OUT + " per publish)", delivery(development, GUIDE_FAN_OUT), 1000));
            out.addAll(row(scenario, db, "per 1,000 failing attempts/s", development.get("delivery attempt, failing (HTTP 500)"), 1000));
        }
        return out;
    }

    private static List<Figure> row(String scenario, String db, String what, Cost c, double perSecond) {
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(scenario, "guide: ledgerlink cores " + what, db, c.serverCores(perSecond), "cores", null, c.describe()));
        if (c.dbCpuMicros() > 0) {
            out.add(Figure.measured(scenario, "guide: PostgreSQL cores " + what, db, c.dbCores(perSecond), "cores", null, ""));
            out.add(Figure.measured(scenario, "guide: WAL " + what, db, c.walBytes() * perSecond / 1e6, "MB/s", null,
                    String.format("%.0f commits/s, %.0f statements/s", c.commits() * perSecond, c.statements() * perSecond)));
        }
        if (c.h2Bytes() > 0) out.add(Figure.measured(scenario, "guide: H2 file writes " + what, db, c.h2Bytes() * perSecond / 1e6, "MB/s", null, ""));
        return out;
    }

    /**
     * A mixed load: refresh grants, publishes to {@code subscribers} answered subscribers each, and sign-ins
     * with a code exchange, as rates a second or as counts of operations completed.
     */
    public record Mix(double refreshes, double publishes, int subscribers, double signIns) {
        public Mix times(double k) {
            return new Mix(refreshes * k, publishes * k, subscribers, signIns * k);
        }

        /** The sum of its operations' {@code costs} (development mode, as it runs), the idle node left out. */
        public Cost cost(Map<String, Cost> costs) {
            return costs.get("refresh grant").times(refreshes).plus(publish(costs, subscribers).times(publishes))
                    .plus(costs.get("sign-in and code exchange").times(signIns));
        }

        public String describe(String per) {
            return String.format("%.0f refresh grants, %.0f publishes to %d answered subscribers and %.1f sign-ins with a code exchange%s",
                    refreshes, publishes, subscribers, signIns, per);
        }
    }

    /**
     * How much of {@code mix} (rates a second) fits in {@code cores} by the costs: 1 when all of it does,
     * otherwise the share whose predicted server and database CPU, with the idle node's, is {@code cores}.
     * The check runs its load at that share, so that what it measures is the costs adding up and not a
     * machine falling behind (a saturated load runs late and its CPU no longer follows its rates).
     */
    public static double fitting(Map<String, Cost> costs, Cost idlePerSecond, Mix mix, double cores) {
        Cost load = mix.cost(costs);
        double loadCores = (load.serverCpuMicros() + load.dbCpuMicros()) / 1e6;
        double idleCores = (idlePerSecond.serverCpuMicros() + idlePerSecond.dbCpuMicros()) / 1e6;
        if (loadCores <= 0) return 1;
        return Math.min(1, Math.max(0, cores - idleCores) / loadCores);
    }

    /**
     * The check: a mixed load ran for {@code d.seconds()} (from its first request until its last delivery
     * was recorded) and completed {@code done}; the model predicts its CPU-seconds as the idle node's
     * spending over that time plus each completed operation's cost ({@code costs}, development mode, as
     * it ran). Server, database and both together, as measured / predicted; {@code asked} is the rates
     * the load was run at, for the note.
     */
    public static List<Figure> check(String scenario, String db, Map<String, Cost> costs, Cost idlePerSecond, Counters.Reading d, Mix done,
                                     Mix asked, double rssMib) {
        double seconds = d.seconds();
        Cost predicted = idlePerSecond.times(seconds).plus(done.cost(costs));
        double predictedServer = predicted.serverCpuMicros() / 1e6;
        double predictedDb = predicted.dbCpuMicros() / 1e6;
        String load = String.format("asked %s; completed %s in %.1f s", asked.describe(" a second"), done.describe(""), seconds);
        String bound = String.format("%.2f - %.2f", 1 - TOLERANCE, 1 + TOLERANCE);
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(scenario, "mixed load: ledgerlink cores measured", db, d.serverCpu() / seconds, "cores", null,
                String.format("predicted %.2f (%.1f of %.1f CPU-seconds); %s; server RSS %.0f MiB", predictedServer / seconds, d.serverCpu(),
                        predictedServer, load, rssMib)).with("predicted", predictedServer / seconds).with("cpu_seconds", d.serverCpu())
                .with("predicted_cpu_seconds", predictedServer).with("seconds", seconds));
        out.add(Figure.measured(scenario, "mixed load: ledgerlink cores measured / predicted", db, d.serverCpu() / predictedServer, "x", bound, ""));
        if (predictedDb > 0) {
            out.add(Figure.measured(scenario, "mixed load: PostgreSQL cores measured", db, d.dbCpu() / seconds, "cores", null,
                    String.format("predicted %.2f (%.1f of %.1f CPU-seconds); WAL %.2f MB/s predicted %.2f", predictedDb / seconds, d.dbCpu(),
                            predictedDb, d.walBytes() / seconds / 1e6, predicted.walBytes() / seconds / 1e6))
                    .with("predicted", predictedDb / seconds).with("cpu_seconds", d.dbCpu()).with("predicted_cpu_seconds", predictedDb));
            out.add(Figure.measured(scenario, "mixed load: PostgreSQL cores measured / predicted", db, d.dbCpu() / predictedDb, "x", bound, ""));
            out.add(Figure.measured(scenario, "mixed load: all cores measured / predicted", db,
                    (d.serverCpu() + d.dbCpu()) / (predictedServer + predictedDb), "x", bound, ""));
        }
        return out;
    }
}
