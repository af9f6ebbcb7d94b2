package dev.ledgerlink.callbacks;

import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * The delivery queue as the callbacks capability acts on it, always in the caller's transaction, so
 * a callback's row and what it queues or drops commit together: a crash between them cannot leave a
 * callback that never gets its code, nor a disabled one whose deliveries are still pending.
 * Implemented by the delivery capability (delivery.CallbackDeliveries); only
 * {@link CallbackEffects} calls it, and {@link OperatorCallbacks} when an operator changes a rate limit.
 */
public interface CallbackQueue {

    /**
     * Queues the callback's verification request. What it carries (the code, account, user, uri) is
     * read from the callbacks row when it is sent, so the latest code (after a resend) is the one
     * that goes out and no secret is copied to the queue.
     */
    void enqueueVerification(Handle transaction, long callbackId, Instant now);

    /** Drops every event delivery still pending or held for the callback, recording {@code reason}; how many. */
    int dropPending(Handle transaction, long callbackId, String reason, Instant now);

    /**
     * Holds every event delivery still pending for the callback (re-keying): none is claimed until
     * {@link #releaseHeld}; one in flight right now loses its lease, so its outcome changes nothing.
     */
    int holdPending(Handle transaction, long callbackId, Instant now);

    /** Makes every held event delivery of the callback due {@code now}, its attempts so far kept; how many. */
    int releaseHeld(Handle transaction, long callbackId, Instant now);

    /**
     * The callback's rate limit changed: its deliveries waiting for their first attempt (their turns
     * given at the old limit) fall due now, to be paced anew at the new one; how many.
     */
    int repace(Handle transaction, long callbackId, Instant now);
}
