package dev.ledgerlink.events;

import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Queues the deliveries a just-stored event causes, inside the publisher's transaction (so the event
 * and its deliveries commit together), and returns how many. The wiring hands in the delivery
 * queue's fan-out; events does not know the queue, and the queue does not know the catalog.
 */
@FunctionalInterface
public interface FanOut {
    int queue(Handle h, long eventId, String accountId, String name, String noun, Instant now);
}
