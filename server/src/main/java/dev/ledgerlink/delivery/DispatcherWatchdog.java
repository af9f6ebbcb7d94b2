package dev.ledgerlink.delivery;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a claim pass of the delivery dispatcher that never returns. A pass waits at most the pool's
 * connection timeout for a connection and then runs a few short statements; one that has run for
 * longer than the lease plus {@code delivery.stall-margin} (30 s) is stuck: H2's endless spin on a row damaged by a crash
 * (docs/operations.md, "Durability and failure"), or a PostgreSQL connection whose network vanished
 * without a reset, which the driver waits on for ever. Nothing is claimed while it lasts, so no
 * delivery is sent. The watchdog says so once as an error, shows it as the gauge
 * {@code ledgerlink_delivery_dispatcher_stalled} (1 while stuck), and {@link #stalled()} makes
 * /healthz answer 503, so a supervisor restarts the process (and on H2 the restart rebuilds the file).
 */
final class DispatcherWatchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DispatcherWatchdog.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(5);

    private final Duration limit;
    private final Thread thread;
    /** System.nanoTime() when the current pass started; meaningful while {@link #inPass}. */
    private volatile long passStarted;
    private volatile boolean inPass;

    /** {@code limit}: the lease plus the stall margin (config.DeliverySettings checks it exceeds the connection wait). */
    DispatcherWatchdog(Duration limit, MeterRegistry registry) {
        this.limit = limit;
        Gauge.builder("ledgerlink.delivery.dispatcher.stalled", this, w -> w.stalled().isPresent() ? 1 : 0)
                .description("1 while a claim pass of the delivery dispatcher has run longer than the lease plus delivery.stall-margin").register(registry);
        this.thread = Thread.ofVirtual().name("delivery-watchdog").start(this::watch);
    }

    void passStarted() {
        passStarted = System.nanoTime();
        inPass = true;
    }

    void passEnded() {
        inPass = false;
    }

    /** How long the current pass has run, when that is longer than the limit. */
    Optional<Duration> stalled() {
        if (!inPass) return Optional.empty();
        Duration running = Duration.ofNanos(System.nanoTime() - passStarted);
        return running.compareTo(limit) > 0 ? Optional.of(running) : Optional.empty();
    }

    private void watch() {
        long reportedPass = -1;
        while (true) {
            try {
                Thread.sleep(CHECK_EVERY);
            } catch (InterruptedException e) {
                return;   // close()
            }
            long pass = passStarted;
            Optional<Duration> stuck = stalled();
            if (stuck.isPresent() && pass != reportedPass) {
                reportedPass = pass;
                LOG.error("the delivery dispatcher has been in one claim pass for {} s (the limit is the lease plus delivery.stall-margin, {} s): "
                        + "no delivery is claimed or sent until it returns; /healthz answers 503 so that a supervisor restarts "
                        + "this process (docs/operations.md, \"Durability and failure\")", stuck.get().toSeconds(), limit.toSeconds());
            }
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
