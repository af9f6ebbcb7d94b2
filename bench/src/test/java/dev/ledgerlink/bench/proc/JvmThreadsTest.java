package dev.ledgerlink.bench.proc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JIT and GC threads are found by HotSpot's names, in this very JVM. */
class JvmThreadsTest {

    @Test
    void namesOfCompilerAndCollectorThreadsAreRecognised() {
        assertTrue(JvmThreads.isCompiler("C2 CompilerThre"));
        assertTrue(JvmThreads.isCompiler("C1 CompilerThre"));
        assertTrue(JvmThreads.isGc("VM Thread"));
        assertTrue(JvmThreads.isGc("GC Thread#0"));
        assertTrue(JvmThreads.isGc("G1 Conc#0"));
        assertFalse(JvmThreads.isGc("VM Periodic Tas"));
        assertFalse(JvmThreads.isCompiler("main"));
        assertFalse(JvmThreads.isGc("ForkJoinPool-1-"));
    }

    @Test
    void thisJvmHasCompilerAndCollectorThreadsWithCpuCounted() {
        JvmThreads.Snapshot s = JvmThreads.of(ProcessHandle.current().pid());
        assertFalse(s.jit().isEmpty(), "a compiler thread is listed: " + s);
        assertFalse(s.gc().isEmpty(), "the VM thread or a GC worker is listed: " + s);
        assertTrue(s.jit().values().stream().allMatch(v -> v >= 0));
        double[] none = s.since(s);
        assertTrue(none[0] == 0 && none[1] == 0, "no time passes between a snapshot and itself");
    }

    @Test
    void timeOfThreadsThatEndedIsNotCountedAsNegative() {
        var before = new JvmThreads.Snapshot(Map.of(1L, 5.0, 2L, 1.0), Map.of());
        var after = new JvmThreads.Snapshot(Map.of(2L, 1.5, 3L, 0.25), Map.of());
        assertTrue(Math.abs(after.since(before)[0] - 0.75) < 1e-9, "thread 1 ended: only 2's and the new 3's time");
    }
}
