package dev.ledgerlink.cli;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM and SIGINT as a request to stop, handled by the serve command itself rather than by the
 * JVM's exit: the JVM's own handling runs the shutdown hooks and ends with status 143 (130 for
 * SIGINT), which supervisors count as a failure; handled here, the server stops in its phases and
 * the process exits 0. Where the JVM keeps the signals (-Xrs), the shutdown hook stops the server
 * the same way and the status stays the JVM's.
 */
final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);

    private StopSignals() {}

    /** Runs {@code stop} (once per signal received, on a thread of the JVM's) when SIGTERM or SIGINT arrives. */
    static void onStop(Runnable stop) {
        for (String name : List.of("TERM", "INT")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    LOG.info("SIG{} received", name);
                    stop.run();
                });
            } catch (IllegalArgumentException kept) {
                LOG.debug("SIG{} is the JVM's here ({}); the shutdown hook stops the server", name, kept.getMessage());
            }
        }
    }
}
