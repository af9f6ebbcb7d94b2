package dev.ledgerlink.bench.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** scripts/bench-embedded keeps working: every store runs the grant's transaction and is measured (no timing is checked). */
class EmbeddedStoreBenchTest {
    @Test
    void everyStoreRunsTheRefreshGrantsTransactionAndIsMeasured() throws Exception {
        List<EmbeddedStoreBench.Result> results = EmbeddedStoreBench.run(List.of(2), new EmbeddedStoreBench.Load(200, 100, 300));
        assertEquals(3, results.size());
        for (EmbeddedStoreBench.Result r : results) {
            assertTrue(r.grantsPerSecond() > 0, "grants measured: " + r);
            assertTrue(r.cpuMicrosPerGrant() > 0, "CPU measured: " + r);
        }
    }
}
