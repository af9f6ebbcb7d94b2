package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;

/**
 * How a callback's state is stored (V3, V28): the columns {@code verified}, {@code disabled} and
 * {@code rekeying_since}, disabled winning over the others (a disabled callback keeps whether it had
 * been verified), re-keying being an unverified callback with rekeying_since set, and deleted as the
 * row's absence. The one mapping between those columns and {@link State}: in Java ({@link #of}) and
 * as SQL conditions on a callbacks row (for the fan-out and the operators' filter), so "verified and
 * enabled" is written here only.
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
    /** SQL on a callbacks row: its state receives events ({@link State#receivesEvents}); what the fan-out selects. */
    public static final String RECEIVES_EVENTS = "disabled = false and (verified = true or rekeying_since is not null)";
    /** SQL on a callbacks row that receives events: its state sends them now ({@link State#sends}); else they are held. */
    public static final String SENDS = "verified = true";

    /** The state of a stored callback. */
    public static State of(boolean verified, boolean disabled, boolean rekeying) {
        if (disabled) return State.DISABLED;
        if (verified) return State.VERIFIED;
        return rekeying ? State.REKEYING : State.UNVERIFIED;
    }
}
