package dev.ledgerlink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.bench.report.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness keeps working: the quick mode runs every scenario against a real server process (on
 * H2; the token scenario on PostgreSQL as well) and writes its JSON. Only that results were produced is checked, never a timing.
 * A figure may be "not measured" only because a feature is not merged on this build, never because
 * the harness broke.
 *
 * <p>The two runs go side by side (their servers are separate processes on free ports, and nothing is
 * asserted of a figure's size): they are the last tests of the suite, and one after the other they
 * left a core idle most of the time.
 */
@Execution(ExecutionMode.CONCURRENT)
class QuickBenchTest {

    @Test
    void quickRunProducesFiguresForEveryScenarioAndWritesJson(@TempDir Path dir) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(BenchDatabase.Kind.H2), null, dir);
        Report report = BenchMain.run(config, List.of());
        Path json = dir.resolve("results.json");
        report.writeJson(json);

        List<Figure> figures = report.figures();
        Set<String> scenarios = figures.stream().map(Figure::scenario).collect(Collectors.toSet());
        assertEquals(Set.of("footprint", "token", "delivery", "isolation", "signin", "flood"), scenarios);
        for (Figure f : figures) {
            assertFalse(f.metric().equals("(scenario failed)"), "scenario " + f.scenario() + " failed: " + f.note());
            if (!f.isMeasured()) {
                assertTrue(f.note().contains("is not merged"), "not measured for another reason than a missing feature: " + f);
            }
            if (f.isMeasured() && f.unit().equals("/s")) {
                assertTrue(f.value() > 0, "a rate of zero: " + f);
            }
        }
        assertTrue(figures.stream().anyMatch(f -> f.isMeasured() && f.metric().startsWith("GET /healthz")), "healthz load measured");
        assertTrue(figures.stream().anyMatch(f -> f.isMeasured() && f.metric().startsWith("bare HttpClient loop")), "bare loop measured");
        assertTrue(figures.stream().anyMatch(f -> f.isMeasured() && f.metric().startsWith("start to ready")), "start to ready measured");
        Figure flood = figures.stream().filter(f -> f.scenario().equals("signin") && f.metric().contains("answered")).findFirst().orElseThrow();
        assertEquals(100.0, flood.value(), "every sign-in of the flood is answered, none refused or reset: " + flood.note());
        assertEquals(true, flood.detail().get("user_signs_in_after"), "the user signs in right after the flood: " + flood.note());

        JsonNode written = new ObjectMapper().readTree(Files.readString(json));
        assertEquals(figures.size(), written.path("figures").size());
        assertTrue(written.path("machine").path("cores").asInt() > 0);
    }

    /**
     * The growth and cost scenarios, which a plain run leaves out: on H2, a database filled to a
     * thousandth of the growth size beside an empty one, and each operation's cost with the mixed-load
     * check. Figures came out for each part; none is checked against a bound.
     */
    @Test
    void quickGrowthAndCostsRunsProduceFiguresOnEveryStep(@TempDir Path dir) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(BenchDatabase.Kind.H2), null, dir.resolve("out"));
        Report report = BenchMain.run(config, List.of("growth", "costs"), List.of(
                new dev.ledgerlink.bench.scenarios.GrowthScenario(0.001, dir.resolve("growth")),
                new dev.ledgerlink.bench.scenarios.CostsScenario(dir.resolve("growth"))));
        List<Figure> figures = report.figures();
        for (Figure f : figures) assertFalse(f.metric().equals("(scenario failed)"), "scenario " + f.scenario() + " failed: " + f.note());
        for (String metric : List.of("refresh grants (large) c4 per second", "deliveries per second to healthy callbacks (large)",
                "claim statement mean (large)", "console activity p99, idle (large)", "retention pass, rows removed per second (large)",
                "refresh grants c4 per second, large / empty", "statement plans recorded (large)",
                "refresh grant (production mode): server CPU per operation", "delivery attempt, answered (development mode): server CPU per operation",
                "mixed load: ledgerlink cores measured / predicted")) {
            assertTrue(figures.stream().anyMatch(f -> f.isMeasured() && f.metric().equals(metric)), "measured: " + metric);
        }
        List<Figure> reads = figures.stream().filter(f -> f.detail().containsKey("failures") && f.detail().containsKey("path")).toList();
        assertFalse(reads.isEmpty(), "paged reads measured");
        assertTrue(reads.stream().allMatch(f -> (int) f.detail().get("failures") == 0), "every paged read answered 200: " + reads);
    }

    /** The harness's PostgreSQL side (a schema per server, dropped after; its CPU sampled) works too. */
    @Test
    void quickRunOnPostgresMeasuresTheTokenEndpoint(@TempDir Path dir) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(BenchDatabase.Kind.POSTGRES), null, dir);
        Report report = BenchMain.run(config, List.of("token"));
        List<Figure> figures = report.figures();
        assertFalse(figures.isEmpty());
        for (Figure f : figures) {
            assertEquals("postgres", f.db(), "every figure is of the PostgreSQL server: " + f);
            assertTrue(f.isMeasured(), "measured: " + f);
        }
        assertTrue(figures.stream().anyMatch(f -> f.metric().startsWith("refresh grants") && f.value() > 0), "refresh grants measured");
    }
}
