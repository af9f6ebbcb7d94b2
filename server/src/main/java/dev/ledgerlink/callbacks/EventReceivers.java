package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;

/**
 * Who receives an event (decisions.md, "Notifications": fan-out), the one home of the rule: each
 * callback of the event's account that is subscribed to the event's name or to its noun, and whose
 * state receives events. A verified callback's delivery is sent; a re-keying one's (its code was
 * resent: decisions.md, "Re-keying loses nothing") is held until the new code is verified. Nobody
 * else: a callback never verified, a disabled one, another account's. (Every callback receives its
 * own verification requests, whatever its state; those are not events, and CallbackEffects queues
 * them.)
 *
 * <p>Spelled once per reader: in Java on a state, for the engine, which sees the state of a claimed
 * delivery's callback ({@link #receives}, {@link #sendsNow}); as SQL on a callbacks row {@code c}, for
 * the fan-out that selects the receivers (delivery/DeliveryStore: {@link #OF_EVENT}, {@link #SENDS_NOW})
 * and the queue's statements that settle held rows. CallbackServiceTest holds the two spellings to
 * each other in every state, on both databases; how a state is stored is StateColumns'.
 */
public final class EventReceivers {
    private EventReceivers() {}

    /** Whether a callback in this state receives events: verified, or re-keying. */
    public static boolean receives(State s) {
        return s == State.VERIFIED || s == State.REKEYING;
    }

    /** Whether a callback in this state sends what it receives now: verified; a re-keying one's deliveries are held. */
    public static boolean sendsNow(State s) {
        return s == State.VERIFIED;
    }

    /** SQL on callbacks row {@code c}: {@link #receives} its state (disabled wins over the others; re-keying is unverified with rekeying_since). */
    public static final String RECEIVING = "c.disabled = false and (c.verified = true or c.rekeying_since is not null)";

    /** SQL on callbacks row {@code c}: {@link #sendsNow} its state. */
    public static final String SENDS_NOW = "c.verified = true and c.disabled = false";

    /**
     * SQL on callbacks row {@code c}: it receives the event named {@code :name}, of noun {@code :noun},
     * published for account {@code :accountId} (callbacks_fanout finds the account's callbacks of the noun).
     */
    public static final String OF_EVENT = """
            c.account_id = :accountId and c.event_noun = :noun and (c.event = :name or c.event = :noun)
              and\s""" + RECEIVING;
}
