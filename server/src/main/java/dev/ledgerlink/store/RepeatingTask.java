package dev.ledgerlink.store;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One step run every interval on a daemon thread of its own, until closed: background work on a
 * database that may be away (the service clock's reads, development mode's fault rules and journal).
 * A step that fails is handed to {@code failed} and runs again at the next interval.
 */
public final class RepeatingTask implements AutoCloseable {
    private final Thread thread;

    private RepeatingTask(String name, Duration every, Runnable step, Consumer<RuntimeException> failed) {
        thread = Thread.ofPlatform().daemon().name(name).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    TimeUnit.NANOSECONDS.sleep(every.toNanos());
                    step.run();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    failed.accept(e);
                }
            }
        });
    }

    /** Starts the thread; the first step runs one interval from now. */
    public static RepeatingTask start(String name, Duration every, Runnable step, Consumer<RuntimeException> failed) {
        return new RepeatingTask(name, every, step, failed);
    }

    /** Stops the thread, waiting up to two seconds for a step under way. */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
