package dev.ledgerlink.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ledgerlink.bench.report.Figure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sizing model's arithmetic: an idle node's spending taken off a phase and counted over a mixed load's
 * time in its prediction, and a mix scaled to a share of the machine.
 */
class SizingModelTest {

    private static Counters.Reading reading(double seconds, double serverCpu, double dbCpu, long wal, long commits) {
        return new Counters.Reading(true, (long) (seconds * 1e9), serverCpu, dbCpu, wal, commits, 0, 0);
    }

    @Test
    void aPhaseLeavesOutWhatTheIdleNodeSpendsOverAsLong() {
        Counters.Reading phase = reading(10, 5.0, 2.0, 1_000_000, 5_000);
        Counters.Reading idle = reading(2, 0.2, 0.1, 2_000, 10);
        Counters.Reading less = phase.lessIdle(idle);
        assertEquals(4.0, less.serverCpu(), 1e-9);
        assertEquals(1.5, less.dbCpu(), 1e-9);
        assertEquals(990_000, less.walBytes());
        assertEquals(4_950, less.commits());
        assertEquals(10.0, less.seconds(), 1e-9);
    }

    private static final Map<String, Cost> COSTS = Map.of(
            "refresh grant", new Cost(100, 50, 0, 0, 0, 0),
            "publish, per event", new Cost(50, 10, 0, 0, 0, 0),
            "publish, per subscriber (its delivery queued)", new Cost(20, 5, 0, 0, 0, 0),
            "delivery attempt, answered", new Cost(30, 5, 0, 0, 0, 0),
            "sign-in and code exchange", new Cost(10_000, 100, 0, 0, 0, 0));
    /** 0.05 server cores, 0.01 database cores a second. */
    private static final Cost IDLE = new Cost(50_000, 10_000, 0, 0, 0, 0);

    @Test
    void theMixedLoadsPredictionIsTheIdleNodeOverItsTimePlusEachCompletedOperation() {
        // 500 x 100 us + 200 x (50 + 3 x 50) us + 5 x 10,000 us = 0.05 + 0.04 + 0.05 = 0.14 server CPU-seconds, and the idle node's 0.05 a second.
        // 500 x 50 us + 200 x (10 + 3 x 10) us + 5 x 100 us = 0.025 + 0.008 + 0.0005 = 0.0335 database CPU-seconds, and 0.01 a second.
        SizingModel.Mix done = new SizingModel.Mix(500, 200, 3, 5);
        double seconds = 4;
        double server = 0.14 + 0.05 * seconds;
        double db = 0.0335 + 0.01 * seconds;
        Counters.Reading measured = reading(seconds, server, db * 1.1, 0, 0);
        List<Figure> figures = SizingModel.check("costs", "PostgreSQL", COSTS, IDLE, measured, done, done.times(1 / seconds), 200);
        assertEquals(1.0, value(figures, "mixed load: ledgerlink cores measured / predicted"), 1e-9);
        assertEquals(1.1, value(figures, "mixed load: PostgreSQL cores measured / predicted"), 1e-9);
        assertEquals(server / seconds, value(figures, "mixed load: ledgerlink cores measured"), 1e-9);
    }

    @Test
    void aMixTooLargeForTheMachineIsScaledToWhatFitsItsShare() {
        // The mix a second: 0.14 server + 0.0335 database cores; with the idle node's 0.06, 0.2335.
        SizingModel.Mix mix = new SizingModel.Mix(500, 200, 3, 5);
        assertEquals(1.0, SizingModel.fitting(COSTS, IDLE, mix, 1.0), 1e-9);
        double k = SizingModel.fitting(COSTS, IDLE, mix, 0.1);
        assertEquals((0.1 - 0.06) / 0.1735, k, 1e-9);
        Cost scaled = mix.times(k).cost(COSTS);
        assertEquals(0.1, (scaled.serverCpuMicros() + scaled.dbCpuMicros()) / 1e6 + 0.06, 1e-9);
        assertEquals(3, mix.times(k).subscribers());
    }

    private static double value(List<Figure> figures, String metric) {
        return figures.stream().filter(f -> f.metric().equals(metric)).findFirst().orElseThrow(() -> new AssertionError("no " + metric + " in " + figures))
                .value();
    }
}
