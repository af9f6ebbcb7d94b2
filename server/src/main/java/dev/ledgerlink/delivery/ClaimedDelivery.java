package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.tracing.TraceHeaders;
import java.time.Instant;

/**
 * A delivery a worker holds the lease of, with what sending it needs from its callback and event;
 * {@code callbackState} is the callback's state as the row was leased; {@code rateLimit} the
 * callback's own pace (null: the setting delivery.rate-limit), which {@link DeliveryPace} keeps;
 * {@code test} is null but for a test delivery of development mode; {@code ordered} whether its
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
        TestSend test,
        boolean ordered,
        TraceHeaders trace) {

    /** A delivery of a real event or a verification request to a callback without a pace of its own, not ordered: no test options. */
    public ClaimedDelivery(long id, long callbackId, DeliveryKind kind, int attempts, Long eventId, String eventName, long objectId,
                           String eventAccountId, long eventUserId, String uri, String verifierSealed, String callbackAccountId,
                           long callbackUserId, State callbackState, Instant failingSince) {
        this(id, callbackId, kind, attempts, eventId, eventName, objectId, eventAccountId, eventUserId, uri, verifierSealed, null,
                callbackAccountId, callbackUserId, callbackState, failingSince, null, null, false, null);
    }

    /**
     * A test delivery's options ({@link TestDelivery}) and, when the deliveries of its call go in an
     * order, its sequence and place in it (0 first; null sequence: no order).
     */
    public record TestSend(TestDelivery options, String sequence, int position) {}

    boolean isVerification() {
        return kind == DeliveryKind.VERIFICATION;
    }

    /** X-Service-Event-Id and webhook-id: one per delivery, the same on every retry. */
    String messageId() {
        return "msg_" + id;
    }
}
