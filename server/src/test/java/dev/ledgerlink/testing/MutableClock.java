package dev.ledgerlink.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move forward by hand, so expiry can be tested without waiting. Starts at the real now. */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /**
     * Moves this clock along with real time until closed, for tests where retries and leases must
     * come due by themselves.
     */
    public Following followRealTime() {
        Thread ticker = Thread.ofVirtual().name("clock-ticker").start(() -> {
            long last = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
                long at = System.nanoTime();
                advance(Duration.ofNanos(at - last));
                last = at;
            }
        });
        return ticker::interrupt;
    }

    /** Stops following real time when closed. */
    public interface Following extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
