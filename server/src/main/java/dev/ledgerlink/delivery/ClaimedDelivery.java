package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import java.time.Instant;

/**
 * A delivery a worker holds the lease of, with what sending it needs from its callback and event;
 * {@code callbackState} is the callback's state as the row was leased; {@code rateLimit} the
 * callback's own pace (null: the setting delivery.rate-limit), which {@link DeliveryPace} keeps;
 * {@code ordered} whether it was set to ordered delivery then (DeliveryOrder).
 */
public record ClaimedDelivery(
        long id,
        long callbackId,
        DeliveryKind kind,
        int attempts,
        Long eventId,
        String eventName,
        long objectId,
        String eventAccountId,
        long eventUserId,
        String uri,
        String verifierSealed,
        String callbackAccountId,
        long callbackUserId,
        State callbackState,
        Instant failingSince,
        Integer rateLimit,
        boolean ordered) {

    /** A delivery to a callback without a pace of its own, not ordered. */
    public ClaimedDelivery(long id, long callbackId, DeliveryKind kind, int attempts, Long eventId, String eventName, long objectId,
                           String eventAccountId, long eventUserId, String uri, String verifierSealed, String callbackAccountId,
                           long callbackUserId, State callbackState, Instant failingSince) {
        this(id, callbackId, kind, attempts, eventId, eventName, objectId, eventAccountId, eventUserId, uri, verifierSealed, callbackAccountId,
                callbackUserId, callbackState, failingSince, null, false);
    }

    boolean isVerification() {
        return kind == DeliveryKind.VERIFICATION;
    }

    /** X-Service-Event-Id and webhook-id: one per delivery, the same on every retry. */
    String messageId() {
        return "msg_" + id;
    }
}
