package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Each callback's run of failures (callbacks.failing_since) and the disabling it leads to: the
 * {@link DisablePolicy} says when, {@link CallbackStateMachine} says what follows, and this class
 * applies the effects on the callbacks table (STOP_NOTIFICATIONS sets disabled). The caller writes
 * the audit line of a disabling once its transaction has committed.
 */
public final class FailureRuns implements DeliveryFailures {
    private final DisablePolicy policy;

    public FailureRuns(DisablePolicy policy) {
        this.policy = policy;
    }

    @Override
    public void succeeded(Handle h, Collection<Long> callbackIds, Instant now) {
        if (callbackIds.isEmpty()) return;
        h.createUpdate(CallbackStore.END_FAILURE_RUNS).bindList("ids", List.copyOf(callbackIds)).bind("now", now).execute();
    }

    @Override
    public Optional<Transition> failed(Handle h, long callbackId, State state, Instant failingSince, Instant now) {
        CallbackStore store = h.attach(CallbackStore.class);
        if (failingSince == null) {
            store.startFailureRun(callbackId, now);
            return Optional.empty();
        }
        // Only a verified callback is disabled (the machine refuses FAILING_TOO_LONG otherwise): an
        // unverified one receives only its verification request, whose retries end within the window,
        // and a resend starts it afresh.
        if (state != State.VERIFIED || !policy.shouldDisable(failingSince, now)) return Optional.empty();
        Transition t = CallbackStateMachine.apply(state, Trigger.FAILING_TOO_LONG);
        // Conditional on the run still being old enough: a success recorded by another process in
        // the meantime has reset failing_since, and then nothing is disabled.
        if (t.has(Effect.STOP_NOTIFICATIONS) && store.disableIfFailingSince(callbackId, policy.cutoff(now), now) == 0) {
            return Optional.empty();
        }
        return Optional.of(t);
    }

    @Override
    public Optional<Transition> gone(Handle h, long callbackId, State state, Instant now) {
        Transition t = CallbackStateMachine.apply(state, Trigger.ENDPOINT_GONE);
        if (!t.has(Effect.STOP_NOTIFICATIONS) || h.attach(CallbackStore.class).disable(callbackId, now) == 0) return Optional.empty();
        return Optional.of(t);
    }
}
