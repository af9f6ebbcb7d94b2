package dev.ledgerlink.retention;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** The sweeper's progress in /metrics: rows removed per rule as each batch commits, passes, and the last completed one. */
final class RetentionMetrics {
    private final MeterRegistry registry;
    final AtomicLong running = new AtomicLong();
    final AtomicLong lastCompletedEpochSeconds = new AtomicLong();

    RetentionMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("ledgerlink.retention.sweep.running", running, AtomicLong::get)
                .description("1 while this process is sweeping").register(registry);
        Gauge.builder("ledgerlink.retention.last.sweep.timestamp.seconds", lastCompletedEpochSeconds, AtomicLong::get)
                .description("When this process last completed a sweep (Unix seconds; 0: not yet)").register(registry);
    }

    void removed(String rule, long rows) {
        Counter.builder("ledgerlink.retention.removed").description("Rows removed by the retention sweeper")
                .tag("rule", rule).register(registry).increment(rows);
    }

    void pass(String outcome) {
        Counter.builder("ledgerlink.retention.sweeps").description("Sweeper passes by outcome (completed, skipped: another node held the lease, failed)")
                .tag("outcome", outcome).register(registry).increment();
    }
}
