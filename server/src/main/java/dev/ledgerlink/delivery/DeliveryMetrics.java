package dev.ledgerlink.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/** The engine's meters: outcomes, the queue depth (refreshed each poll), and attempt latency. */
final class DeliveryMetrics {
    final Counter delivered;
    final Counter failed;
    final Counter dropped;
    final Counter disabled;
    final Timer attempt;
    final AtomicLong queueDepth = new AtomicLong();

    DeliveryMetrics(MeterRegistry registry) {
        delivered = Counter.builder("ledgerlink.deliveries.delivered").description("Deliveries answered with a 2xx").register(registry);
        failed = Counter.builder("ledgerlink.deliveries.failed").description("Failed attempts (non-2xx, timeout, refused)").register(registry);
        dropped = Counter.builder("ledgerlink.deliveries.dropped").description("Deliveries given up: retries exhausted, callback disabled, unverified or gone").register(registry);
        disabled = Counter.builder("ledgerlink.callbacks.disabled").description("Callbacks disabled after the failure window").register(registry);
        attempt = Timer.builder("ledgerlink.delivery.attempt").description("Duration of one delivery attempt").publishPercentileHistogram().register(registry);
        Gauge.builder("ledgerlink.deliveries.queue.depth", queueDepth, AtomicLong::get).description("Pending deliveries in the database").register(registry);
    }
}
