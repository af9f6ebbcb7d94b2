package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.tracing.TraceHeaders;
import java.time.Instant;

/**
 * A delivery a worker holds the lease of, with what sending it needs from its callback and event;
 * {@code callbackState} is the callback's state as the row was leased; {@code trace} the trace context
 * its event kept from its publish (null: a verification request, or an event published without one).
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
        TraceHeaders trace) {

    boolean isVerification() {
        return kind == DeliveryKind.VERIFICATION;
    }

    /** X-Service-Event-Id and webhook-id: one per delivery, the same on every retry. */
    String messageId() {
        return "msg_" + id;
    }
}
