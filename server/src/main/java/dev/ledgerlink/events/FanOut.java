package dev.ledgerlink.events;

import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Queues the deliveries a just-stored event causes, inside the publisher's transaction (so the event
 * and its deliveries commit together). The wiring hands in the delivery queue's fan-out; events does
 * not know the queue, and the queue does not know the catalog.
 */
@FunctionalInterface
public interface FanOut {
    Queued queue(Handle h, long eventId, String accountId, String name, String noun, Instant now);

    /**
     * What the fan-out queued: how many deliveries, and what the publisher runs once its transaction
     * has committed (this process's engine starts sending them, or is woken to claim them). It must
     * not run before the commit: the deliveries would be sent for an event that may still roll back.
     */
    record Queued(int deliveries, Runnable afterCommit) {
        public static final Queued NONE = new Queued(0, () -> {});
    }
}
