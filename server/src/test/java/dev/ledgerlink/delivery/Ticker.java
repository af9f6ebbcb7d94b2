package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.MutableClock;
import java.time.Duration;

/** Moves a test server's clock along with real time, for tests where retries must come due by themselves. */
final class Ticker implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    Ticker(MutableClock clock) {
        thread = Thread.ofVirtual().start(() -> {
            while (running) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
                clock.advance(Duration.ofMillis(50));
            }
        });
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
