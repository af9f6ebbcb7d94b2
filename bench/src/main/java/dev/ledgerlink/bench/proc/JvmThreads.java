package dev.ledgerlink.bench.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU a JVM spends on itself rather than on the load: its JIT compiler threads and its garbage
 * collection (the GC worker threads and the VM thread, where the serial collector and every
 * safepoint run). Read per thread from /proc/&lt;pid&gt;/task, by the names HotSpot gives its threads.
 *
 * <p>Why the harness needs it: on a slow or busy machine C2 can still be compiling a fresh server's
 * hot paths many seconds into a load (38 s of compile time in a server's first 42 s was seen on one
 * machine here), so a window that starts too early measures the compiler as much as the server.
 */
public final class JvmThreads {
    /** CPU seconds of one JVM, split by who used it, at one instant, per thread id. */
    public record Snapshot(Map<Long, Double> jit, Map<Long, Double> gc) {
        /** JIT and GC CPU seconds used between {@code earlier} and this snapshot (threads that ended in between are lost). */
        public double[] since(Snapshot earlier) {
            return new double[] {delta(jit, earlier.jit), delta(gc, earlier.gc)};
        }

        private static double delta(Map<Long, Double> now, Map<Long, Double> before) {
            double sum = 0;
            for (var e : now.entrySet()) sum += e.getValue() - before.getOrDefault(e.getKey(), 0.0);
            return Math.max(0, sum);
        }
    }

    private JvmThreads() {}

    /** HotSpot's compiler threads ("C2 CompilerThread0", cut to 15 characters by the kernel). */
    static boolean isCompiler(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** Garbage collection: G1's and Parallel's workers, G1's concurrent threads, and the VM thread (the serial collector's). */
    static boolean isGc(String name) {
        return name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread");
    }

    /** The JIT and GC threads' CPU of a process now; empty maps when /proc does not tell. */
    public static Snapshot of(long pid) {
        Map<Long, Double> jit = new HashMap<>();
        Map<Long, Double> gc = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    boolean compiler = isCompiler(name);
                    if (!compiler && !isGc(name)) continue;
                    double cpu = ProcStats.cpuSecondsOf(task.resolve("stat"));
                    if (cpu < 0) continue;
                    (compiler ? jit : gc).put(Long.parseLong(task.getFileName().toString()), cpu);
                } catch (IOException | RuntimeException ended) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException | RuntimeException gone) {
            // not Linux, or the process is gone
        }
        return new Snapshot(jit, gc);
    }
}
