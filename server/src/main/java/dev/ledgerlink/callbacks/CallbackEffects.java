package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * The one place a transition's effects on the delivery queue are applied, in the caller's
 * transaction, whoever took the transition: the callbacks API (register, resend, a new uri, delete),
 * an operator (disable), or the delivery engine's outcomes (a callback failing too long, or gone).
 * The callback's own row (its state, its code) is written by the trigger's statement just before.
 * <ul>
 * <li>{@link Effect#SEND_VERIFICATION_REQUEST}: the request is queued.</li>
 * <li>{@link Effect#DROP_PENDING}: the callback's pending (and held) event deliveries are dropped
 *     with the reason given; for a deleted callback there is nothing left to drop, its deliveries
 *     having gone with its row (deliveries.callback_id is {@code on delete cascade}).</li>
 * <li>{@link Effect#HOLD_PENDING}: its pending event deliveries are held (re-keying), not dropped.</li>
 * <li>{@link Effect#RELEASE_HELD}: what was held falls due at once; the engine is woken after the commit.</li>
 * <li>{@link Effect#START_NOTIFICATIONS} and {@link Effect#STOP_NOTIFICATIONS} are what the new
 *     state answers ({@link EventReceivers#receives}, {@link EventReceivers#sendsNow}): the fan-out reads it (a
 *     delivery for a callback that receives but does not send is queued held), and the engine reads
 *     it again before each send, so an event delivery queued before the stop is dropped unsent.</li>
 * </ul>
 * An operator's change of the ordered setting is not a transition, but its effect on the queue (its
 * pending deliveries lined up, or let go) is applied here too ({@link #orderChanged}).
 */
final class CallbackEffects {
    private final CallbackQueue queue;

    CallbackEffects(CallbackQueue queue) {
        this.queue = queue;
    }

    /**
     * What applying a transition did: how many pending deliveries it dropped, how many it held, and
     * whether it queued work for the engine (a verification request, or held deliveries released).
     */
    record Applied(int dropped, int held, boolean queued) {}

    Applied apply(Handle h, long callbackId, Transition t, String dropReason, Instant now) {
        int dropped = 0;
        if (t.has(Effect.DROP_PENDING) && t.next() != State.DELETED) dropped = queue.dropPending(h, callbackId, dropReason, now);
        int held = t.has(Effect.HOLD_PENDING) ? queue.holdPending(h, callbackId, now) : 0;
        int released = t.has(Effect.RELEASE_HELD) ? queue.releaseHeld(h, callbackId, now) : 0;
        boolean verification = t.has(Effect.SEND_VERIFICATION_REQUEST);
        if (verification) queue.enqueueVerification(h, callbackId, now);
        return new Applied(dropped, held, verification || released > 0);
    }

    void orderChanged(Handle h, long callbackId, boolean ordered, Instant now) {
        queue.orderChanged(h, callbackId, ordered, now);
    }
}
