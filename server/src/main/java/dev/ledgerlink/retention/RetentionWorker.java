package dev.ledgerlink.retention;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sweeper every retention.interval in the background of a server. When another node holds
 * the lease this node simply skips that turn: one sweeper per cluster is enough.
 */
public final class RetentionWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionWorker.class);

    private final RetentionSweeper sweeper;
    private final Duration interval;
    private final Thread thread;
    private volatile boolean running = true;

    private RetentionWorker(RetentionSweeper sweeper, Duration interval) {
        this.sweeper = sweeper;
        this.interval = interval;
        this.thread = Thread.ofPlatform().name("retention-sweeper").daemon().start(this::loop);
    }

    /** A worker, or null when retention.interval is zero (the background sweeper is off). */
    public static RetentionWorker start(RetentionSweeper sweeper, Duration interval) {
        return interval.isZero() ? null : new RetentionWorker(sweeper, interval);
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(interval);
                sweeper.sweep(Duration.ZERO);
            } catch (InterruptedException e) {
                return;
            } catch (RetentionSweeper.Busy busy) {
                LOG.debug("retention: {}", busy.getMessage());
            } catch (RuntimeException e) {
                if (running) LOG.warn("retention sweep failed: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
