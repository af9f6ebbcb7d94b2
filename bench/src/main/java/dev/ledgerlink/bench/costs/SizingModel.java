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
     * The mixed load's prediction from {@code costs} (development mode, as it ran) and what the node
     * spends idle a second ({@code idle}), and its measurement {@code d} over {@code seconds}: server,
     * database and both together, as measured / predicted.
     */
    public static List<Figure> check(String scenario, String db, Map<String, Cost> costs, Cost idle, Counters.Reading d, double refresh,
                                     double publish, int subscribers, double signIns, double seconds, double rssMib) {
        Cost perSecond = idle.plus(costs.get("refresh grant").times(refresh)).plus(publish(costs, subscribers).times(publish))
                .plus(costs.get("sign-in and code exchange").times(signIns));
        double predictedServer = perSecond.serverCpuMicros() / 1e6;
        double predictedDb = perSecond.dbCpuMicros() / 1e6;
        double server = d.serverCpu() / seconds;
        double database = d.dbCpu() / seconds;
        String load = String.format("%.0f refresh grants, %.0f publishes to %d answered subscribers and %.0f sign-ins with a code exchange a second,"
                + " %.0f s", refresh, publish, subscribers, signIns, seconds);
        String bound = String.format("%.2f - %.2f", 1 - TOLERANCE, 1 + TOLERANCE);
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(scenario, "mixed load: ledgerlink cores measured", db, server, "cores", null,
                String.format("predicted %.2f; %s; server RSS %.0f MiB", predictedServer, load, rssMib)).with("predicted", predictedServer));
        out.add(Figure.measured(scenario, "mixed load: ledgerlink cores measured / predicted", db, server / predictedServer, "x", bound, ""));
        if (predictedDb > 0) {
            out.add(Figure.measured(scenario, "mixed load: PostgreSQL cores measured", db, database, "cores", null,
                    String.format("predicted %.2f; WAL %.2f MB/s predicted %.2f", predictedDb, d.walBytes() / seconds / 1e6, perSecond.walBytes() / 1e6))
                    .with("predicted", predictedDb));
            out.add(Figure.measured(scenario, "mixed load: PostgreSQL cores measured / predicted", db, database / predictedDb, "x", bound, ""));
            out.add(Figure.measured(scenario, "mixed load: all cores measured / predicted", db, (server + database) / (predictedServer + predictedDb),
                    "x", bound, ""));
        }
        return out;
    }
}
