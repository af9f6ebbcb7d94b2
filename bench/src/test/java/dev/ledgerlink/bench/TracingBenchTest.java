package dev.ledgerlink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.bench.report.Report;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --tracing keeps working: the quick delivery scenario with the server's traces on reaches the
 * harness's collector. Only that figures and exports were produced is checked, never a timing.
 */
class TracingBenchTest {

    @Test
    void aTracingRunMeasuresDeliveriesAndItsServerExportsTracesToTheHarness(@TempDir Path dir) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(BenchDatabase.Kind.H2), null, dir).withTracing();
        Report report = BenchMain.run(config, List.of("delivery"));
        List<Figure> figures = report.figures();
        assertTrue(figures.stream().anyMatch(f -> f.isMeasured() && f.unit().equals("/s") && f.value() > 0), "deliveries measured: " + figures);
        for (Figure f : figures) assertTrue(f.isMeasured(), "measured: " + f);
        assertEquals(true, report.facts().get("tracing"));
        assertTrue(((Number) report.facts().get("trace_exports")).longValue() > 0, "the server sent its spans to the harness's collector");
    }
}
