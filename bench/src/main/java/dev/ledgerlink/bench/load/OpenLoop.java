package dev.ledgerlink.bench.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An open-loop load: requests at a fixed rate, whatever the answers' latency, spread over {@code workers}
 * virtual threads (each with its own connection or chain: worker i sends every workers/rate seconds,
 * shifted by i/rate). A request's latency is counted from when it was due, not from when it was sent,
 * so a server that falls behind shows in the latencies instead of lowering the rate unseen. Used where
 * a load's cost is measured at a rate below saturation (the cost scenario's mixed load), not for
 * throughput.
 */
public final class OpenLoop {
    /** What the loop sent: answered as expected, failed, late (sent after its next one was due), latencies from due time. */
    public record Outcome(long ok, long failed, long late, double seconds, Latencies latencies, String firstFailure) {
        public double perSecond() { return seconds <= 0 ? 0 : ok / seconds; }
    }

    private OpenLoop() {}

    /** Runs {@code workers} workers at {@code perSecond} requests a second in all, for {@code duration}. */
    public static Outcome run(double perSecond, int workers, Duration duration, ClosedLoop.WorkerFactory factory) throws InterruptedException {
        if (perSecond <= 0 || workers < 1) throw new IllegalArgumentException("a rate above 0 and at least one worker");
        List<ClosedLoop.Worker> prepared = ClosedLoop.prepare(workers, factory);
        long intervalNanos = (long) (workers * 1e9 / perSecond);
        long start = System.nanoTime() + 50_000_000L;
        long end = start + duration.toNanos();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong late = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        List<Latencies> parts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                ClosedLoop.Worker w = prepared.get(i);
                Latencies lat = new Latencies((int) Math.min(2_000_000, perSecond / workers * duration.toSeconds() + 16));
                parts.add(lat);
                long offset = (long) (i * 1e9 / perSecond);
                threads.add(Thread.ofVirtual().start(() -> {
                    for (long due = start + offset; due < end; due += intervalNanos) {
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            try {
                                Thread.sleep(Duration.ofNanos(wait));
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                        boolean good;
                        try {
                            good = w.call();
                            if (!good) firstFailure.compareAndSet(null, "unexpected answer");
                        } catch (ClosedLoop.Exhausted e) {
                            return;
                        } catch (Exception e) {
                            good = false;
                            firstFailure.compareAndSet(null, e.toString());
                        }
                        long now = System.nanoTime();
                        if (now > due + intervalNanos) late.incrementAndGet();
                        if (good) {
                            ok.incrementAndGet();
                            lat.add(now - due);
                        } else {
                            failed.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) t.join(duration.plusSeconds(60));
        } finally {
            prepared.forEach(ClosedLoop.Worker::close);
        }
        return new Outcome(ok.get(), failed.get(), late.get(), (System.nanoTime() - start) / 1e9, Latencies.merge(parts), firstFailure.get());
    }
}
