package dev.ledgerlink.bench.proc;

import java.util.function.BooleanSupplier;

/**
 * True once a JVM's compiler threads used less than {@link #QUIET_CORES} of a core since the
 * previous question: the hot paths of the current load are compiled, so what a window measures next
 * is the server, not its JIT. Asked once a second by a warm-up that keeps going until it is true.
 */
public final class JitSettled implements BooleanSupplier {
    /** A tenth of a core: C2 finishing a straggler or two, not compiling the load's paths. */
    public static final double QUIET_CORES = 0.10;

    private final long pid;
    private JvmThreads.Snapshot last;
    private long lastNanos;

    public JitSettled(long pid) {
        this.pid = pid;
        this.last = JvmThreads.of(pid);
        this.lastNanos = System.nanoTime();
    }

    @Override
    public synchronized boolean getAsBoolean() {
        JvmThreads.Snapshot now = JvmThreads.of(pid);
        long nanos = System.nanoTime();
        double seconds = (nanos - lastNanos) / 1e9;
        double jitCores = seconds <= 0 ? 0 : now.since(last)[0] / seconds;
        last = now;
        lastNanos = nanos;
        return jitCores < QUIET_CORES;
    }
}
