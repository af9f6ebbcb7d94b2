package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;

/**
 * How a callback's state is stored (V3, V28): the columns {@code verified}, {@code disabled} and
 * {@code rekeying_since}, disabled winning over the others (a disabled callback keeps whether it had
 * been verified), re-keying being an unverified callback with rekeying_since set, and deleted as the
 * row's absence. The one mapping between those columns and {@link State}: in Java ({@link #of}) and
 * as SQL conditions on a callbacks row (the operators' filter, the lapse of re-keying). Which states
 * receive events, in Java and as the fan-out's SQL, is {@link EventReceivers}'.
 */
public final class StateColumns {
    private StateColumns() {}

    /** SQL on a callbacks row: {@link State#UNVERIFIED}. */
    public static final String UNVERIFIED = "verified = false and disabled = false and rekeying_since is null";
    /** SQL on a callbacks row: {@link State#REKEYING}. */
    public static final String REKEYING = "verified = false and disabled = false and rekeying_since is not null";
    /** SQL on a callbacks row: {@link State#VERIFIED}. */
    public static final String VERIFIED = "verified = true and disabled = false";
    /** SQL on a callbacks row: {@link State#DISABLED}. */
    public static final String DISABLED = "disabled = true";

    /** The state of a stored callback. */
    public static State of(boolean verified, boolean disabled, boolean rekeying) {
        if (disabled) return State.DISABLED;
        if (verified) return State.VERIFIED;
        return rekeying ? State.REKEYING : State.UNVERIFIED;
    }
}
