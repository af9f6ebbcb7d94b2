package dev.ledgerlink.bench.proc;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a load window cost: the server's peak resident memory (sampled every 100 ms) and the CPU
 * used by the server, the load generator (this process), PostgreSQL and the whole machine. These
 * are what tell which one limits a figure: a server near 2 cores is CPU-bound, a load generator
 * that took a core is part of the limit, a busy PostgreSQL points at the database.
 */
public final class Usage implements AutoCloseable {
    public record Summary(double peakRssMib, double serverCpu, double loadgenCpu, double postgresCpu, double machineBusy,
                          double seconds) {
        /** Cores used on average by each, over the window. */
        public String describe() {
            return String.format("server %.2f cores, load generator %.2f, postgres %.2f, other processes %.2f (machine busy %.0f%%)",
                    serverCpu / seconds, loadgenCpu / seconds, postgresCpu / seconds, otherCores(), machineBusy * 100);
        }

        /** Cores used by processes that are none of ours (other work sharing the machine), on average. */
        public double otherCores() {
            double busyCores = machineBusy * Runtime.getRuntime().availableProcessors();
            return Math.max(0, busyCores - (serverCpu + loadgenCpu + postgresCpu) / seconds);
        }
    }

    private final long serverPid;
    private final boolean postgres;
    private final long t0 = System.nanoTime();
    private final double server0;
    private final double loadgen0;
    private final double postgres0;
    private final long[] machine0;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread sampler;
    private volatile double peakRss;

    private Usage(long serverPid, boolean postgres) {
        this.serverPid = serverPid;
        this.postgres = postgres;
        this.server0 = ProcStats.cpuSeconds(serverPid);
        this.loadgen0 = ProcStats.cpuSeconds(ProcessHandle.current().pid());
        this.postgres0 = postgres ? ProcStats.postgresCpuSeconds() : 0;
        this.machine0 = ProcStats.machineJiffies();
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

    public static Usage start(long serverPid, boolean postgres) {
        return new Usage(serverPid, postgres);
    }

    public Summary stop() {
        running.set(false);
        sampler.interrupt();
        double seconds = (System.nanoTime() - t0) / 1e9;
        peakRss = Math.max(peakRss, ProcStats.rssMib(serverPid));
        long[] machine1 = ProcStats.machineJiffies();
        double busy = machine0 == null || machine1 == null || machine1[1] == machine0[1] ? Double.NaN
                : (double) (machine1[0] - machine0[0]) / (machine1[1] - machine0[1]);
        return new Summary(peakRss,
                ProcStats.cpuSeconds(serverPid) - server0,
                ProcStats.cpuSeconds(ProcessHandle.current().pid()) - loadgen0,
                postgres ? ProcStats.postgresCpuSeconds() - postgres0 : 0,
                busy, seconds);
    }

    @Override
    public void close() {
        running.set(false);
        sampler.interrupt();
    }
}
