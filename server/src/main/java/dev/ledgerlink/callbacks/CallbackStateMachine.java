package dev.ledgerlink.callbacks;

import java.util.EnumSet;
import java.util.Set;

/**
 * The callback state machine of interface.md ("States and transitions", Callback) as one pure
 * function: given where a callback is and what happened, where it goes and what else must happen.
 * No I/O here: each caller writes the callback's row with the trigger's own statement
 * ({@link CallbackService}, {@link OperatorCallbacks}, {@link FailureRuns}), and
 * {@link CallbackEffects} applies the effects on the delivery queue, in the same transaction. How a
 * state is stored is {@link StateColumns}'. Every pair of state and trigger is decided (tested
 * exhaustively in CallbackStateMachineTest): either a transition or a refusal.
 */
public final class CallbackStateMachine {

    public enum State {
        UNVERIFIED, VERIFIED, DISABLED, DELETED;

        /**
         * Whether the callback receives events: the fan-out gives it a delivery of each event it is
         * subscribed to, and the engine sends them. Only a verified callback does; every callback
         * receives its verification requests, whatever its state.
         */
        public boolean receivesEvents() {
            return this == VERIFIED;
        }
    }

    public enum Trigger {
        /** POST with event and uri (only from no state). */
        REGISTER,
        /** PUT with callback.verifier equal to the code last sent. */
        VERIFY_WITH_RIGHT_CODE,
        /** PUT with callback.verifier that is not the code last sent. */
        VERIFY_WITH_WRONG_CODE,
        /** PUT with callback.resend true. */
        RESEND,
        /** PUT with a different callback.event (the uri unchanged). */
        CHANGE_EVENT,
        /** PUT with a different callback.uri: it must be verified anew. */
        CHANGE_URI,
        /** The delivery engine saw only failures for the whole disable window. */
        FAILING_TOO_LONG,
        /** The endpoint answered 410 Gone (Standard Webhooks: it will never come back). */
        ENDPOINT_GONE,
        /** DELETE on the callback. */
        DELETE,
        /** An operator disables it (admin API or CLI), whatever its delivery record. */
        OPERATOR_DISABLE,
        /** An operator enables a disabled callback again without a new verification. */
        OPERATOR_ENABLE
    }

    public enum Effect {
        /** A fresh random code replaces the old one, which stops working. */
        ISSUE_NEW_CODE,
        /** The verification request (name=callback.verify, the code) is queued to the uri. */
        SEND_VERIFICATION_REQUEST,
        /** Notifications of the subscribed events go to the uri from now on. */
        START_NOTIFICATIONS,
        /** No more notifications to the uri (until verified again, or ever after a delete). */
        STOP_NOTIFICATIONS,
        /** What was still queued for the callback is dropped. */
        DROP_PENDING,
        /** A wrong try counts toward the verification throttle; nothing else changes. */
        COUNT_WRONG_TRY
    }

    public record Transition(State next, Set<Effect> effects) {
        public boolean has(Effect e) { return effects.contains(e); }
    }

    /** A trigger that cannot apply in a state (for example anything after a delete). */
    public static final class IllegalTransition extends RuntimeException {
        public IllegalTransition(State from, Trigger trigger) {
            super(trigger + " cannot apply to a callback that is " + (from == null ? "not registered" : from.name().toLowerCase()));
        }
    }

    private CallbackStateMachine() {}

    /** @param from the current state, or null for a callback not yet registered */
    public static Transition apply(State from, Trigger trigger) {
        if (from == null) {
            if (trigger == Trigger.REGISTER) {
                return to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST);
            }
            throw new IllegalTransition(null, trigger);
        }
        if (from == State.DELETED || trigger == Trigger.REGISTER) throw new IllegalTransition(from, trigger);
        return switch (trigger) {
            case VERIFY_WITH_RIGHT_CODE -> switch (from) {
                case UNVERIFIED -> to(State.VERIFIED, Effect.START_NOTIFICATIONS);
                // Already verified: nothing to do. Disabled: only a resend re-enables (interface.md).
                default -> to(from);
            };
            case VERIFY_WITH_WRONG_CODE -> to(from, Effect.COUNT_WRONG_TRY);
            // Resend re-issues the code from any state; a disabled callback is re-enabled by it,
            // and every callback is unverified until the new code comes back.
            case RESEND, CHANGE_URI -> from == State.VERIFIED
                    ? to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST, Effect.STOP_NOTIFICATIONS)
                    : to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST);
            case CHANGE_EVENT -> to(from);
            case FAILING_TOO_LONG -> switch (from) {
                case VERIFIED -> to(State.DISABLED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                case DISABLED -> to(State.DISABLED);
                // An unverified callback receives only its verification requests, whose retries end
                // within the window (FailureRuns asks this of a verified callback only).
                default -> throw new IllegalTransition(from, trigger);
            };
            case ENDPOINT_GONE -> switch (from) {
                case VERIFIED -> to(State.DISABLED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                // An unverified callback's verification request answered 410 is simply not retried:
                // the callback stays unverified, and a resend tries the endpoint again.
                default -> to(from);
            };
            case DELETE -> to(State.DELETED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
            case OPERATOR_DISABLE -> switch (from) {
                case VERIFIED -> to(State.DISABLED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                // Nothing is notified to an unverified callback; disabled keeps it so until an operator enables it.
                default -> to(State.DISABLED);
            };
            // Back to verified: the endpoint proved it holds the code before it was disabled. A
            // callback disabled before it was ever verified is refused by the service (it needs a
            // resend), since the state DISABLED does not say whether it had been verified.
            case OPERATOR_ENABLE -> from == State.DISABLED ? to(State.VERIFIED, Effect.START_NOTIFICATIONS) : to(from);
            case REGISTER -> throw new IllegalTransition(from, trigger);
        };
    }

    private static Transition to(State next, Effect... effects) {
        Set<Effect> set = EnumSet.noneOf(Effect.class);
        set.addAll(java.util.List.of(effects));
        return new Transition(next, java.util.Collections.unmodifiableSet(set));
    }
}
