package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.ProcStats;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Footprint at rest: start-to-ready (spawn `serve`, production mode, to the first 200 of /readyz) on an empty database,
 * where Flyway creates the schema, and on a restart over the existing schema; resident memory when
 * ready and idle. Resident memory under load is reported by each load scenario beside its figures.
 */
public final class StartupScenario implements Scenario {
    @Override
    public String name() { return "footprint"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        List<Figure> out = new ArrayList<>();
        for (BenchDatabase.Kind kind : run.config().databases()) {
            List<Double> cold = new ArrayList<>();
            List<Double> warm = new ArrayList<>();
            double idleRss = 0;
            for (int i = 0; i < run.config().startups(); i++) {
                try (BenchRun.Stage stage = run.stage(kind)) {
                    ServerProcess s = stage.start(false);
                    cold.add(s.startToReadyMs());
                    if (!run.config().quick()) {
                        // quick mode skips the restart to keep the test suite short
                        stage.stopServer();
                        s = stage.start(false);
                        warm.add(s.startToReadyMs());
                    }
                    Thread.sleep(500);
                    idleRss = Math.max(idleRss, ProcStats.rssMib(s.pid()));
                }
            }
            String db = kind.label();
            out.add(Figure.measured(name(), "start to ready, empty database (migrations run), median", db, median(cold), "ms", "<= 2,000",
                    "starts: " + cold).with("all_ms", cold));
            if (!warm.isEmpty()) {
                out.add(Figure.measured(name(), "start to ready, restart over existing schema, median", db, median(warm), "ms", "<= 2,000",
                        "starts: " + warm).with("all_ms", warm));
            }
            out.add(Figure.measured(name(), "RSS when ready and idle (max of starts)", db, idleRss, "MiB", "<= 300", ""));
        }
        return out;
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length == 0 ? Double.NaN : a[a.length / 2];
    }
}
