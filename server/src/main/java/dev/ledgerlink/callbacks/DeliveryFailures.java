package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * How the delivery engine tells the callbacks capability what its attempts did, inside the
 * transaction that records them (the other direction of {@link CallbackQueue}). The callbacks
 * capability keeps each callback's run of failures and decides, through {@link DisablePolicy} and
 * {@link CallbackStateMachine}, when one is disabled; the disabling's effects on the queue are
 * applied in the same transaction ({@link CallbackEffects}). Implemented by {@link FailureRuns}.
 */
public interface DeliveryFailures {

    /** What one attempt came to, as the delivery rule (retry.RetryRule) judged it. */
    enum Outcome { SUCCEEDED, FAILED, GONE }

    /**
     * One attempt to a callback.
     *
     * @param state what the callback was when its delivery was claimed
     * @param failingSince the start of its run of failures as claimed, null when none
     */
    record Attempted(long callbackId, State state, Instant failingSince, Outcome outcome) {}

    /**
     * A callback the reported attempts disabled: the cause (for the audit trail: endpoint_gone,
     * failing_too_long), why in words (for the operator's notice), and how many of its pending
     * deliveries the disabling dropped.
     */
    record Disabled(long callbackId, String cause, String why, int dropped) {}

    /** The outcomes of one batch of attempts, in the order they were made; returns the callbacks they disabled. */
    List<Disabled> record(Handle h, List<Attempted> attempts, Instant now);
}
