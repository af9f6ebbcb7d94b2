package dev.ledgerlink.bench;

import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.report.Figure;
import java.util.ArrayList;
import java.util.List;

/** One scenario of issue 6: runs bounded in time and count and returns its figures. */
public interface Scenario {
    String name();

    List<Figure> run(BenchRun run) throws Exception;

    /** What a scenario measures on one kind of database, PostgreSQL being the harness's own cluster (null for H2). */
    interface OnOwnCluster {
        List<Figure> measure(BenchDatabase.Kind kind, dev.ledgerlink.bench.proc.PrivatePostgres pg) throws Exception;
    }

    /**
     * Runs {@code work} for each database of the run, PostgreSQL in the harness's own cluster in
     * {@code clusterDir} (started once, stopped at the end); a database where it fails gets a
     * "(scenario failed)" figure, and the others are still measured.
     */
    default List<Figure> onEachDatabase(BenchRun run, java.nio.file.Path clusterDir, OnOwnCluster work) throws Exception {
        List<Figure> out = new ArrayList<>();
        dev.ledgerlink.bench.proc.PrivatePostgres pg = null;
        try {
            for (BenchDatabase.Kind kind : run.config().databases()) {
                try {
                    if (kind == BenchDatabase.Kind.POSTGRES && pg == null) pg = dev.ledgerlink.bench.proc.PrivatePostgres.start(clusterDir);
                    out.addAll(work.measure(kind, kind == BenchDatabase.Kind.POSTGRES ? pg : null));
                } catch (Exception e) {
                    e.printStackTrace();
                    out.add(Figure.notMeasured(name(), "(scenario failed)", kind.label(), "", null, e.toString()));
                }
            }
        } finally {
            if (pg != null) pg.close();
        }
        return out;
    }

    /** What a scenario measures on one database's stage. */
    interface OnStage {
        List<Figure> measure(BenchRun.Stage stage) throws Exception;
    }

    /**
     * Runs {@code work} on a stage of each database of the run, in turn; a database where it fails
     * gets a "(scenario failed)" figure, and the others are still measured.
     */
    default List<Figure> onEachDatabase(BenchRun run, OnStage work) throws Exception {
        List<Figure> out = new ArrayList<>();
        for (BenchDatabase.Kind kind : run.config().databases()) {
            try (BenchRun.Stage stage = run.stage(kind)) {
                try {
                    out.addAll(work.measure(stage));
                } catch (Exception e) {
                    e.printStackTrace();
                    out.add(Figure.notMeasured(name(), "(scenario failed)", kind.label(), "", null, e.toString()));
                }
            }
        }
        return out;
    }
}
