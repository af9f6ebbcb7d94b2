package dev.ledgerlink;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether this process is ready for traffic beyond its database being reachable: work the process
 * must finish after it listens (a {@code --seed} file to apply) keeps /readyz at 503, naming the
 * work, until it is done. A 200 is a promise that what the start-up set up is in place.
 */
public final class Readiness {
    private final AtomicReference<String> pending = new AtomicReference<>();

    /** Not ready until {@link #done()}: {@code work} says what is awaited (it is shown in /readyz). */
    public void hold(String work) {
        pending.set(work);
    }

    public void done() {
        pending.set(null);
    }

    /** What start-up work is still under way, if any. */
    public Optional<String> pending() {
        return Optional.ofNullable(pending.get());
    }
}
