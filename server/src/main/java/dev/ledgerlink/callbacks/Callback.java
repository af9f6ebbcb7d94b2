package dev.ledgerlink.callbacks;

import java.time.Instant;

/**
 * One row of the callbacks table (V3, V6, V28, V30, V31, V40). The verification code itself is never held here in plain text:
 * it is sealed ({@code verifierSealed}) with the key whose fingerprint is {@code verifierKey} (null: sealed before V40).
 * {@code rateLimit}: the operator's deliveries per second for it, null for the setting delivery.rate-limit.
 * {@code ordered}: an operator's setting, deliveries one at a time in order (delivery.DeliveryOrder).
 */
public record Callback(
        long id,
        String accountId,
        long applicationId,
        long userId,
        String event,
        String uri,
        boolean verified,
        boolean disabled,
        String verifierSealed,
        String verifierKey,
        String verifierHash,
        Instant failingSince,
        Instant createdAt,
        Instant updatedAt,
        int verifyFailures,
        Instant verifyFailuresSince,
        Instant rekeyingSince,
        Integer rateLimit,
        boolean ordered) {

    public CallbackStateMachine.State state() {
        return StateColumns.of(verified, disabled, rekeyingSince != null);
    }

    public VerifierThrottle.Count wrongTries() {
        return new VerifierThrottle.Count(verifyFailures, verifyFailuresSince);
    }
}
