package dev.ledgerlink.bench.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A closed-loop load: {@code concurrency} virtual threads, each sending its next request as soon as
 * the previous one answered, until the time bound or the count bound is reached (whichever first).
 * A warm-up period runs the same loop without recording, so the JIT of both processes settles first:
 * at least {@link Warmup#least}, then on in one-second steps until the server's compiler is quiet
 * ({@link Warmup#settled}) or {@link Warmup#most} has passed.
 */
public final class ClosedLoop {

    /** One worker's request; returns true when the answer was the expected one. */
    public interface Worker extends AutoCloseable {
        boolean call() throws Exception;

        @Override
        default void close() {}
    }

    /** Thrown by a worker that has used up what it was prepared with: it stops, nothing is counted. */
    public static final class Exhausted extends Exception {
        public Exhausted() {
            super("worker exhausted", null, false, false);
        }
    }

    public interface WorkerFactory {
        Worker create(int index) throws Exception;
    }

    public record Outcome(long ok, long failed, double seconds, Latencies latencies, String firstFailure, double warmupSeconds) {
        public double perSecond() { return seconds <= 0 ? 0 : ok / seconds; }
    }

    /** How long to warm up: at least {@code least}, then until {@code settled} says so, at most {@code most}. */
    public record Warmup(Duration least, Duration most, BooleanSupplier settled) {
        public static Warmup fixed(Duration d) {
            return new Warmup(d, d, () -> true);
        }
    }

    private ClosedLoop() {}

    public static Outcome run(int concurrency, Duration warmup, Duration duration, long maxCount, WorkerFactory factory)
            throws InterruptedException {
        return run(concurrency, Warmup.fixed(warmup), () -> {}, duration, maxCount, factory);
    }

    /** @param windowStarts called between the warm-up and the measured window (to start counting CPU there) */
    public static Outcome run(int concurrency, Warmup warmup, Runnable windowStarts, Duration duration, long maxCount,
                              WorkerFactory factory) throws InterruptedException {
        List<Worker> workers = prepare(concurrency, factory);
        try {
            Warmed warmed = warm(workers, warmup);
            windowStarts.run();
            Outcome o = phase(workers, duration, maxCount, true);
            return new Outcome(o.ok(), o.failed(), o.seconds(), o.latencies(), o.firstFailure(), warmed.seconds());
        } finally {
            workers.forEach(Worker::close);
        }
    }

    /** What a warm-up took, and how many of its requests were answered as expected. */
    public record Warmed(double seconds, long ok) {}

    /** The warm-up alone, for a load whose measured part is not a closed loop (the delivery scenario's). */
    public static Warmed warmUp(int concurrency, Warmup warmup, WorkerFactory factory) throws InterruptedException {
        List<Worker> workers = prepare(concurrency, factory);
        try {
            return warm(workers, warmup);
        } finally {
            workers.forEach(Worker::close);
        }
    }

    /** The workers of a load, made up front; if one cannot be made, those made are closed. */
    static List<Worker> prepare(int concurrency, WorkerFactory factory) {
        List<Worker> workers = new ArrayList<>();
        try {
            for (int i = 0; i < concurrency; i++) workers.add(factory.create(i));
        } catch (Exception e) {
            workers.forEach(Worker::close);
            throw new IllegalStateException("could not prepare load worker: " + e, e);
        }
        return workers;
    }

    private static Warmed warm(List<Worker> workers, Warmup warmup) throws InterruptedException {
        long start = System.nanoTime();
        long ok = 0;
        if (!warmup.least().isZero()) ok += phase(workers, warmup.least(), Long.MAX_VALUE, false).ok();
        while (System.nanoTime() - start < warmup.most().toNanos() && !warmup.settled().getAsBoolean()) {
            ok += phase(workers, Duration.ofSeconds(1), Long.MAX_VALUE, false).ok();
        }
        return new Warmed((System.nanoTime() - start) / 1e9, ok);
    }

    private static Outcome phase(List<Worker> workers, Duration duration, long maxCount, boolean record)
            throws InterruptedException {
        AtomicLong issued = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        List<Latencies> parts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        int perWorkerLimit = (int) Math.min(2_000_000L, Math.max(1, maxCount));
        for (Worker w : workers) {
            Latencies lat = new Latencies(perWorkerLimit);
            parts.add(lat);
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < deadline && issued.incrementAndGet() <= maxCount) {
                    long t0 = System.nanoTime();
                    boolean good;
                    try {
                        good = w.call();
                        if (!good) firstFailure.compareAndSet(null, "unexpected answer");
                    } catch (Exhausted e) {
                        return;
                    } catch (Exception e) {
                        good = false;
                        firstFailure.compareAndSet(null, e.toString());
                    }
                    long t1 = System.nanoTime();
                    if (good) {
                        ok.incrementAndGet();
                        if (record) lat.add(t1 - t0);
                    } else {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        // Bounded join: a worker stuck past the deadline (30 s socket timeout at most) is not waited for forever.
        long joinDeadline = deadline + Duration.ofSeconds(35).toNanos();
        for (Thread t : threads) {
            long left = joinDeadline - System.nanoTime();
            if (left > 0) t.join(Duration.ofNanos(left));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Outcome(ok.get(), failed.get(), seconds, Latencies.merge(parts), firstFailure.get(), 0);
    }
}
