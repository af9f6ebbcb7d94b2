package dev.ledgerlink.cli;

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

    /** The signals that ask for a stop: a supervisor's, and Ctrl-C in a terminal. */
    enum Kind { TERM, INT }

    /** Runs {@code stop} (once per signal received, on a thread of the JVM's) when SIGTERM or SIGINT arrives. */
    static void onStop(java.util.function.Consumer<Kind> stop) {
        for (Kind kind : Kind.values()) {
            String name = kind.name();
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    LOG.info("SIG{} received", name);
                    stop.accept(kind);
                });
            } catch (IllegalArgumentException kept) {
                LOG.debug("SIG{} is the JVM's here ({}); the shutdown hook stops the server", name, kept.getMessage());
            }
        }
    }
}
