package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * How the delivery engine tells the callbacks capability what its attempts did, inside the
 * transaction that records them (the other direction of {@link VerificationRequests}). The
 * callbacks capability keeps each callback's run of failures and decides, through
 * {@link CallbackStateMachine}, when one is disabled. Implemented by {@link FailureRuns}.
 */
public interface DeliveryFailures {

    /** Attempts to these callbacks succeeded: each one's run of failures, if any, ends. */
    void succeeded(Handle h, Collection<Long> callbackIds, Instant now);

    /**
     * An attempt failed at {@code now}. The first failure starts a run; once the run has lasted
     * the disable window the callback takes {@link CallbackStateMachine.Trigger#FAILING_TOO_LONG}.
     *
     * @param state what the callback was when its delivery was claimed
     * @param failingSince the start of its run of failures as claimed, null when none
     * @return the transition taken when this failure disabled the callback; the caller applies the
     *         effects on what it owns ({@link CallbackStateMachine.Effect#DROP_PENDING})
     */
    Optional<Transition> failed(Handle h, long callbackId, State state, Instant failingSince, Instant now);

    /**
     * The endpoint answered 410 Gone ({@link DisablePolicy#endpointGone}): the callback takes
     * {@link CallbackStateMachine.Trigger#ENDPOINT_GONE} at once, without waiting for the window.
     *
     * @return the transition taken when this disabled the callback, as for {@link #failed}
     */
    Optional<Transition> gone(Handle h, long callbackId, State state, Instant now);
}
