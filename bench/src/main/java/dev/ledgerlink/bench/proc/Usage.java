package dev.ledgerlink.bench.proc;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a load window cost: the server's peak resident memory (sampled every 100 ms) and the CPU
 * used by the server (and, of that, by its JIT compiler and its garbage collection), the load
 * generator (this process), PostgreSQL and the whole machine. These are what tell which one limits
 * a figure: a server near 2 cores is CPU-bound, a load generator that took a core is part of the
 * limit, a busy PostgreSQL points at the database, a server whose compiler is still busy was not
 * warm yet.
 *
 * <p>Peak memory covers everything since {@link #start}; CPU covers what follows the last
 * {@link #windowStarts} (the measured window, without its warm-up).
 */
public final class Usage implements AutoCloseable {
    public record Summary(double peakRssMib, double serverCpu, double loadgenCpu, double postgresCpu, double machineBusy,
                          double seconds, double serverJitCpu, double serverGcCpu) {
        /** Cores used on average by each, over the window. */
        public String describe() {
            return String.format("server %.2f cores (JIT compiler %.2f, GC %.2f), load generator %.2f, postgres %.2f,"
                            + " other processes %.2f (machine busy %.0f%%)",
                    serverCpu / seconds, serverJitCpu / seconds, serverGcCpu / seconds, loadgenCpu / seconds,
                    postgresCpu / seconds, otherCores(), machineBusy * 100);
        }

        /** Cores used by processes that are none of ours (other work sharing the machine), on average. */
        public double otherCores() {
            double busyCores = machineBusy * Runtime.getRuntime().availableProcessors();
            return Math.max(0, busyCores - (serverCpu + loadgenCpu + postgresCpu) / seconds);
        }
    }

    /** CPU counters at the start of the window. */
    private record Baseline(long nanos, double server, double loadgen, double postgres, long[] machine, JvmThreads.Snapshot jvm) {}

    private final long serverPid;
    private final java.util.function.DoubleSupplier postgresCpu;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread sampler;
    private volatile Baseline baseline;
    private volatile double peakRss;

    private Usage(long serverPid, java.util.function.DoubleSupplier postgresCpu) {
        this.serverPid = serverPid;
        this.postgresCpu = postgresCpu;
        this.baseline = read();
        this.peakRss = ProcStats.rssMib(serverPid);
        this.sampler = Thread.ofPlatform().daemon().name("rss-sampler").start(() -> {
            while (running.get()) {
                peakRss = Math.max(peakRss, ProcStats.rssMib(serverPid));
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    private Baseline read() {
        return new Baseline(System.nanoTime(), ProcStats.cpuSeconds(serverPid), ProcStats.cpuSeconds(ProcessHandle.current().pid()),
                postgresCpu == null ? 0 : postgresCpu.getAsDouble(), ProcStats.machineJiffies(), JvmThreads.of(serverPid));
    }

    /** {@code postgres}: count the CPU of every PostgreSQL process of the machine (the shared cluster's). */
    public static Usage start(long serverPid, boolean postgres) {
        return new Usage(serverPid, postgres ? ProcStats::postgresCpuSeconds : null);
    }

    /** {@code postgresCpu}: the CPU seconds of the database's processes so far (a cluster of the harness's own), or null. */
    public static Usage start(long serverPid, java.util.function.DoubleSupplier postgresCpu) {
        return new Usage(serverPid, postgresCpu);
    }

    /** The measured window begins: CPU is counted from here (memory keeps its peak since the start). */
    public void windowStarts() {
        baseline = read();
    }

    public Summary stop() {
        running.set(false);
        sampler.interrupt();
        Baseline b = baseline;
        Baseline now = read();
        double seconds = (now.nanos - b.nanos) / 1e9;
        peakRss = Math.max(peakRss, ProcStats.rssMib(serverPid));
        double busy = b.machine == null || now.machine == null || now.machine[1] == b.machine[1] ? Double.NaN
                : (double) (now.machine[0] - b.machine[0]) / (now.machine[1] - b.machine[1]);
        double[] jitGc = now.jvm.since(b.jvm);
        return new Summary(peakRss, now.server - b.server, now.loadgen - b.loadgen, postgresCpu != null ? now.postgres - b.postgres : 0,
                busy, seconds, jitGc[0], jitGc[1]);
    }

    @Override
    public void close() {
        running.set(false);
        sampler.interrupt();
    }
}
