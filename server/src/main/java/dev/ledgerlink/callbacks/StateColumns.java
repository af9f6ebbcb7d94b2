package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;

/**
 * How a callback's state is stored (V3): the columns {@code verified} and {@code disabled}, disabled
 * winning over verified (a disabled callback keeps whether it had been verified), and deleted as the
 * row's absence. The one mapping between those columns and {@link State}: in Java ({@link #of}) and
 * as SQL conditions on a callbacks row (for the fan-out and the operators' filter), so "verified and
 * enabled" is written here only.
 */
public final class StateColumns {
    private StateColumns() {}

    /** SQL on a callbacks row: {@link State#UNVERIFIED}. */
    public static final String UNVERIFIED = "verified = false and disabled = false";
    /** SQL on a callbacks row: {@link State#VERIFIED}. */
    public static final String VERIFIED = "verified = true and disabled = false";
    /** SQL on a callbacks row: {@link State#DISABLED}. */
    public static final String DISABLED = "disabled = true";
    /** SQL on a callbacks row: its state receives events ({@link State#receivesEvents}); what the fan-out selects. */
    public static final String RECEIVES_EVENTS = VERIFIED;

    /** The state of a stored callback. */
    public static State of(boolean verified, boolean disabled) {
        if (disabled) return State.DISABLED;
        return verified ? State.VERIFIED : State.UNVERIFIED;
    }
}
