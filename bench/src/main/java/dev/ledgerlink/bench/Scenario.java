package dev.ledgerlink.bench;

import dev.ledgerlink.bench.report.Figure;
import java.util.List;

/** One scenario of issue 6: runs bounded in time and count and returns its figures. */
public interface Scenario {
    String name();

    List<Figure> run(BenchRun run) throws Exception;
}
