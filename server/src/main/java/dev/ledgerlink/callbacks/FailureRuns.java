package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * Each callback's run of failures (callbacks.failing_since) and the disabling it leads to: the
 * {@link DisablePolicy} says when, {@link CallbackStateMachine} says what follows, and this class
 * writes it on the callbacks table (disabled) and has {@link CallbackEffects} drop what was pending,
 * all in the recorder's transaction. The caller writes the audit line of a disabling once that
 * transaction has committed.
 *
 * <p>Per callback and batch of attempts: an endpoint that answered 410 Gone disables its callback at
 * once; otherwise a failure counts only when no attempt of the batch to the same callback succeeded
 * (a success ends the run, whatever the order within the batch).
 */
public final class FailureRuns implements DeliveryFailures {
    private final DisablePolicy policy;
    private final CallbackEffects effects;

    public FailureRuns(DisablePolicy policy, CallbackQueue queue) {
        this.policy = policy;
        this.effects = new CallbackEffects(queue);
    }

    @Override
    public List<Disabled> record(Handle h, List<Attempted> attempts, Instant now) {
        Map<Long, Attempted> gone = new LinkedHashMap<>();
        Map<Long, Attempted> failed = new LinkedHashMap<>();
        Set<Long> succeeded = new LinkedHashSet<>();
        for (Attempted a : attempts) {
            switch (a.outcome()) {
                case SUCCEEDED -> succeeded.add(a.callbackId());
                case GONE -> gone.putIfAbsent(a.callbackId(), a);
                case FAILED -> failed.putIfAbsent(a.callbackId(), a);
            }
        }
        List<Disabled> disabled = new ArrayList<>();
        for (Attempted a : gone.values()) {
            gone(h, a, now).ifPresent(t -> disabled.add(disabled(h, a, t, "endpoint_gone", "its endpoint answered 410 Gone", now)));
        }
        for (Attempted a : failed.values()) {
            if (succeeded.contains(a.callbackId()) || gone.containsKey(a.callbackId())) continue;
            failed(h, a, now).ifPresent(t -> disabled.add(disabled(h, a, t, "failing_too_long",
                    "every attempt failed since " + a.failingSince(), now)));
        }
        if (!succeeded.isEmpty()) {
            h.createUpdate(CallbackStore.END_FAILURE_RUNS).bindList("ids", List.copyOf(succeeded)).bind("now", now).execute();
        }
        return disabled;
    }

    /** A callback just disabled: the transition's effects on its pending deliveries. */
    private Disabled disabled(Handle h, Attempted a, Transition t, String cause, String why, Instant now) {
        int dropped = effects.apply(h, a.callbackId(), t, "callback disabled: " + why, now).dropped();
        return new Disabled(a.callbackId(), cause, why, dropped);
    }

    /**
     * A failure at {@code now}: the first starts a run; once the run has lasted the disable window the
     * callback takes {@link Trigger#FAILING_TOO_LONG}.
     */
    private Optional<Transition> failed(Handle h, Attempted a, Instant now) {
        CallbackStore store = h.attach(CallbackStore.class);
        if (a.failingSince() == null) {
            store.startFailureRun(a.callbackId(), now);
            return Optional.empty();
        }
        // Only a verified callback is disabled (the machine refuses FAILING_TOO_LONG otherwise): an
        // unverified one receives only its verification request, whose retries end within the window,
        // and a resend starts it afresh.
        if (a.state() != State.VERIFIED || !policy.shouldDisable(a.failingSince(), now)) return Optional.empty();
        Transition t = CallbackStateMachine.apply(a.state(), Trigger.FAILING_TOO_LONG);
        // Conditional on the run still being old enough: a success recorded by another process in
        // the meantime has reset failing_since, and then nothing is disabled.
        if (t.has(Effect.STOP_NOTIFICATIONS) && store.disableIfFailingSince(a.callbackId(), policy.cutoff(now), now) == 0) {
            return Optional.empty();
        }
        return Optional.of(t);
    }

    /** The endpoint answered 410 Gone: {@link Trigger#ENDPOINT_GONE} at once, without waiting for the window. */
    private Optional<Transition> gone(Handle h, Attempted a, Instant now) {
        Transition t = CallbackStateMachine.apply(a.state(), Trigger.ENDPOINT_GONE);
        if (!t.has(Effect.STOP_NOTIFICATIONS) || h.attach(CallbackStore.class).disable(a.callbackId(), now) == 0) return Optional.empty();
        return Optional.of(t);
    }
}
