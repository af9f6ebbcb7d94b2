package dev.ledgerlink.bench.load;

import java.util.Arrays;

/** Recorded latencies in nanoseconds, bounded in count, and their percentiles. */
public final class Latencies {
    private long[] values;
    private int size;
    private final int limit;

    public Latencies(int limit) {
        this.limit = limit;
        this.values = new long[Math.min(limit, 1024)];
    }

    /** Records one value; beyond the limit values are counted by the caller but no longer kept. */
    public void add(long nanos) {
        if (size == limit) return;
        if (size == values.length) values = Arrays.copyOf(values, Math.min(limit, values.length * 2));
        values[size++] = nanos;
    }

    public int size() { return size; }

    public static Latencies merge(Iterable<Latencies> parts) {
        int total = 0;
        for (Latencies p : parts) total += p.size;
        Latencies all = new Latencies(Math.max(total, 1));
        for (Latencies p : parts) {
            for (int i = 0; i < p.size; i++) all.add(p.values[i]);
        }
        return all;
    }

    /** The q-quantile (0..1) in milliseconds by nearest rank, or NaN when nothing was recorded. */
    public double percentileMillis(double q) {
        if (size == 0) return Double.NaN;
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * size) - 1;
        return sorted[Math.max(0, Math.min(size - 1, rank))] / 1e6;
    }
}
