package dev.ledgerlink.callbacks;

import java.time.Instant;

/**
 * One row of the callbacks table (V3, V6, V28, V30). The verification code itself is never held here in plain text.
 * {@code rateLimit}: the operator's deliveries per second for it, null for the setting delivery.rate-limit.
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
        String verifierHash,
        Instant failingSince,
        Instant createdAt,
        Instant updatedAt,
        int verifyFailures,
        Instant verifyFailuresSince,
        Instant rekeyingSince,
        Integer rateLimit) {

    public CallbackStateMachine.State state() {
        return StateColumns.of(verified, disabled, rekeyingSince != null);
    }

    public VerifierThrottle.Count wrongTries() {
        return new VerifierThrottle.Count(verifyFailures, verifyFailuresSince);
    }
}
