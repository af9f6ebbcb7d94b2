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
        UNVERIFIED, VERIFIED,
        /**
         * Had been verified, and awaits verification of a resent code (decisions.md, "Re-keying loses
         * nothing"): still subscribed, but what it receives is held until the new code comes back.
         * The API shows it as not verified.
         */
        REKEYING,
        DISABLED, DELETED
        // Which of these receive events, and send them now: EventReceivers.
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
        OPERATOR_ENABLE,
        /** A re-keying callback's new code did not come back within the disable period (RekeyingLapses). */
        REKEYING_LAPSED
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
        /** What was still queued (or held) for the callback is dropped. */
        DROP_PENDING,
        /** The callback's pending event deliveries are held until it is verified again (re-keying). */
        HOLD_PENDING,
        /** What was held for the callback falls due at once, to be sent with the new code. */
        RELEASE_HELD,
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
                case REKEYING -> to(State.VERIFIED, Effect.START_NOTIFICATIONS, Effect.RELEASE_HELD);
                // Already verified: nothing to do. Disabled: only a resend re-enables (interface.md).
                default -> to(from);
            };
            case VERIFY_WITH_WRONG_CODE -> to(from, Effect.COUNT_WRONG_TRY);
            // Resend re-issues the code from any state; a disabled callback is re-enabled by it,
            // and every callback is unverified until the new code comes back. A verified one (or one
            // re-keying already) loses nothing meanwhile: it stays subscribed, what it receives held.
            case RESEND -> switch (from) {
                case VERIFIED -> to(State.REKEYING, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST, Effect.HOLD_PENDING);
                case REKEYING -> to(State.REKEYING, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST);
                default -> to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST);
            };
            // A new uri is another endpoint: nothing queued for the old one follows it. What was
            // pending is dropped unsent by the engine; what was held, here (nothing claims it).
            case CHANGE_URI -> switch (from) {
                case VERIFIED -> to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST, Effect.STOP_NOTIFICATIONS);
                case REKEYING -> to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST,
                        Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                default -> to(State.UNVERIFIED, Effect.ISSUE_NEW_CODE, Effect.SEND_VERIFICATION_REQUEST);
            };
            case CHANGE_EVENT -> to(from);
            case FAILING_TOO_LONG -> switch (from) {
                case VERIFIED -> to(State.DISABLED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                case DISABLED -> to(State.DISABLED);
                // An unverified or re-keying callback is sent only its verification requests, whose
                // retries end within the window (FailureRuns asks this of a verified callback only).
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
                case VERIFIED, REKEYING -> to(State.DISABLED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                // Nothing is notified to an unverified callback; disabled keeps it so until an operator enables it.
                default -> to(State.DISABLED);
            };
            // Back to verified: the endpoint proved it holds the code before it was disabled. A
            // callback disabled before it was ever verified is refused by the service (it needs a
            // resend), since the state DISABLED does not say whether it had been verified.
            case OPERATOR_ENABLE -> from == State.DISABLED ? to(State.VERIFIED, Effect.START_NOTIFICATIONS) : to(from);
            // The disable period passed without the new code: it is no longer subscribed (as if
            // never verified), and what was held is dropped (recover can bring it back once verified).
            case REKEYING_LAPSED -> switch (from) {
                case REKEYING -> to(State.UNVERIFIED, Effect.STOP_NOTIFICATIONS, Effect.DROP_PENDING);
                default -> throw new IllegalTransition(from, trigger);
            };
            case REGISTER -> throw new IllegalTransition(from, trigger);
        };
    }

    private static Transition to(State next, Effect... effects) {
        Set<Effect> set = EnumSet.noneOf(Effect.class);
        set.addAll(java.util.List.of(effects));
        return new Transition(next, java.util.Collections.unmodifiableSet(set));
    }
}
