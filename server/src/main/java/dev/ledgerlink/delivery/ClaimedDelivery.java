package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.tracing.TraceHeaders;
import java.time.Instant;

/**
 * A delivery a worker holds the lease of, with what sending it needs from its callback and event;
 * {@code callbackState} is the callback's state as the row was leased; {@code rateLimit} the
 * callback's own pace (null: the setting delivery.rate-limit), which {@link DeliveryPace} keeps;
 * {@code variant} how its attempts are made ({@link DeliveryHooks#PLAIN} but where development mode's
 * hooks said otherwise for a claimed delivery); {@code ordered} whether its
 * callback was set to ordered delivery then (DeliveryOrder); {@code trace} the trace context its event
 * kept from its publish (null: a verification request, or an event published without one);
 * {@code verifierSealed} the callback's code as sealed with the key {@code verifierKey} names (null: sealed before V40).
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
        String verifierKey,
        String callbackAccountId,
        long callbackUserId,
        State callbackState,
        Instant failingSince,
        Integer rateLimit,
        DeliveryHooks.Variant variant,
        boolean ordered,
        TraceHeaders trace) {

    /** A delivery of an event or a verification request to a callback without a pace of its own, not ordered, sent as built. */
    public ClaimedDelivery(long id, long callbackId, DeliveryKind kind, int attempts, Long eventId, String eventName, long objectId,
                           String eventAccountId, long eventUserId, String uri, String verifierSealed, String callbackAccountId,
                           long callbackUserId, State callbackState, Instant failingSince) {
        this(id, callbackId, kind, attempts, eventId, eventName, objectId, eventAccountId, eventUserId, uri, verifierSealed, null,
                callbackAccountId, callbackUserId, callbackState, failingSince, null, DeliveryHooks.PLAIN, false, null);
    }

    /** The same delivery, its attempts made as {@code v} says. */
    public ClaimedDelivery with(DeliveryHooks.Variant v) {
        return new ClaimedDelivery(id, callbackId, kind, attempts, eventId, eventName, objectId, eventAccountId, eventUserId, uri, verifierSealed,
                verifierKey, callbackAccountId, callbackUserId, callbackState, failingSince, rateLimit, v, ordered, trace);
    }

    boolean isVerification() {
        return kind == DeliveryKind.VERIFICATION;
    }

    /** X-Service-Event-Id and webhook-id: one per delivery, the same on every retry. */
    String messageId() {
        return "msg_" + id;
    }
}
