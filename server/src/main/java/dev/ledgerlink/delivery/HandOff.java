package dev.ledgerlink.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The one port between the queue service ({@link DeliveryService}) and this process's delivery
 * engine ({@link DeliveryEngine}), given to the service at construction. A process that runs no
 * engine (the CLI, which only writes to the database) gets {@link #NONE}: what it queues is claimed
 * by a server's engine within its poll interval.
 */
public interface HandOff {

    /** The lease a publish inserts its deliveries under: the token that owns them, and when another process may take them over. */
    record Lease(String token, Instant until) {}

    /** Work was committed by this process (queued unleased): claim it now instead of at the next poll. */
    void wake();

    /**
     * For a publish about to queue deliveries, in its transaction: a lease to insert them under when
     * the engine can start them at once; empty otherwise (no engine, no free slot), and they are
     * queued unleased.
     */
    Optional<Lease> leaseForPublish(Instant now);

    /** After the publisher's commit (never before): sends the rows it leased under {@code lease}, or gives them back to the queue. */
    void send(Lease lease, List<ClaimedDelivery> published);

    /** How long the engine's dispatcher has been stuck in one claim pass, when it is (/healthz answers 503 then). */
    Optional<Duration> stalled();

    /** No engine in this process. */
    HandOff NONE = new HandOff() {
        @Override
        public void wake() {}

        @Override
        public Optional<Lease> leaseForPublish(Instant now) {
            return Optional.empty();
        }

        @Override
        public void send(Lease lease, List<ClaimedDelivery> published) {
            throw new IllegalStateException("no delivery engine in this process leased anything");
        }

        @Override
        public Optional<Duration> stalled() {
            return Optional.empty();
        }
    };
}
