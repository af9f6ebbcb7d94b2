package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackQueue;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * A callback's deliveries as the callbacks capability acts on them ({@link CallbackQueue}), in its
 * transaction: the verification request queued, the pending event deliveries dropped, held (re-keying)
 * or released. Keeps no state:
 * waking this process's engine after the commit is the caller's (DeliveryService#enqueued).
 */
public final class CallbackDeliveries implements CallbackQueue {

    /** The first request also makes the callback's latest-attempt row (callback_last_attempts), which the recorder then only updates. */
    @Override
    public void enqueueVerification(Handle h, long callbackId, Instant now) {
        h.createUpdate(DeliveryStore.ADD_LAST_ATTEMPT_ROW).bind("callbackId", callbackId).execute();
        h.createUpdate(DeliveryStore.INSERT_VERIFICATION).bind("callbackId", callbackId).bind("now", now).execute();
    }

    @Override
    public int repace(Handle h, long callbackId, Instant now) {
        return h.createUpdate(DeliveryStore.REPACE).bind("callbackId", callbackId).bind("now", now).execute();
    }

    @Override
    public int dropPending(Handle h, long callbackId, String reason, Instant now) {
        return h.createUpdate(DeliveryStore.DROP_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", callbackId)
                .bind("reason", reason).bind("now", now).execute();
    }

    @Override
    public int holdPending(Handle h, long callbackId, Instant now) {
        return h.createUpdate(DeliveryStore.HOLD_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", callbackId).execute();
    }

    @Override
    public int releaseHeld(Handle h, long callbackId, Instant now) {
        return h.createUpdate(DeliveryStore.RELEASE_HELD_OF_CALLBACK).bind("callbackId", callbackId).bind("now", now).execute();
    }
}
