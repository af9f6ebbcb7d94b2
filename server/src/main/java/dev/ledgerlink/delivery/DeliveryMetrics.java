package dev.ledgerlink.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/** The engine's meters: outcomes, how work reached the engine, the queue depth (refreshed each poll), and attempt latency. */
final class DeliveryMetrics {
    final Counter delivered;
    final Counter failed;
    final Counter dropped;
    final Counter disabled;
    final Counter claimed;
    final Counter handedOff;
    final Counter claimPasses;
    final Counter paced;
    final Timer attempt;
    final AtomicLong queueDepth = new AtomicLong();

    DeliveryMetrics(MeterRegistry registry) {
        delivered = Counter.builder("ledgerlink.deliveries.delivered").description("Deliveries answered with a 2xx").register(registry);
        failed = Counter.builder("ledgerlink.deliveries.failed").description("Failed attempts (non-2xx, timeout, refused)").register(registry);
        dropped = Counter.builder("ledgerlink.deliveries.dropped").description("Deliveries given up: retries exhausted, callback disabled, unverified or gone").register(registry);
        disabled = Counter.builder("ledgerlink.callbacks.disabled").description("Callbacks disabled after the failure window").register(registry);
        claimed = Counter.builder("ledgerlink.deliveries.claimed").description("Deliveries taken from the queue by this process's claim passes (retries, other processes' publishes, overflow)").register(registry);
        handedOff = Counter.builder("ledgerlink.deliveries.handed.off").description("Deliveries leased to this process's engine by a publish and handed to it after the commit, without a claim pass").register(registry);
        claimPasses = Counter.builder("ledgerlink.delivery.claim.passes").description("Claim statements this process ran against the queue: polls, and wake-ups for work it left there").register(registry);
        paced = Counter.builder("ledgerlink.deliveries.paced").description("Deliveries given back to the queue to wait for their turn under their callback's rate limit (not attempts)").register(registry);
        attempt = Timer.builder("ledgerlink.delivery.attempt").description("Duration of one delivery attempt").publishPercentileHistogram().register(registry);
        Gauge.builder("ledgerlink.deliveries.queue.depth", queueDepth, AtomicLong::get).description("Pending deliveries in the database").register(registry);
    }
}
