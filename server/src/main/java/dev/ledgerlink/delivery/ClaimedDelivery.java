package dev.ledgerlink.delivery;

import java.time.Instant;

/** A delivery a worker holds the lease of, with what sending it needs from its callback and event. */
record ClaimedDelivery(
        long id,
        long callbackId,
        String kind,
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
        boolean verified,
        boolean disabled,
        Instant failingSince) {

    static final String EVENT = "event";
    static final String VERIFICATION = "verification";

    boolean isVerification() {
        return VERIFICATION.equals(kind);
    }

    /** X-Service-Event-Id and webhook-id: one per delivery, the same on every retry. */
    String messageId() {
        return "msg_" + id;
    }
}
