package dev.ledgerlink.callbacks;

import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * The end of a re-keying that no verification ended: a callback re-keying for the disable period
 * (delivery.disable-after, {@link DisablePolicy#cutoff}) since its first resend takes
 * {@link Trigger#REKEYING_LAPSED}. It is then plainly unverified (no longer subscribed), and its held
 * deliveries are dropped, recorded as not re-verified; recover brings them back once it is verified
 * again. The delivery engine runs this every few seconds, in a transaction of its own; the statement
 * that ends a re-keying is conditional, so two processes (or a verification at the same moment)
 * cannot both act on one callback.
 */
public final class RekeyingLapses {
    /** At most this many callbacks per run; the next run takes the rest. */
    static final int BATCH = 100;
    static final String DROP_REASON = "not re-verified: the resent verification code was not verified within the disable period";

    private final DisablePolicy policy;
    private final CallbackEffects effects;

    public RekeyingLapses(DisablePolicy policy, CallbackQueue queue) {
        this.policy = policy;
        this.effects = new CallbackEffects(queue);
    }

    /** A re-keying that lapsed: the callback, and how many held deliveries were dropped. */
    public record Lapsed(long callbackId, String accountId, String uri, int dropped) {}

    /** Ends the re-keyings that lapsed by {@code now}, in the caller's transaction. */
    public List<Lapsed> lapse(Handle h, Instant now) {
        CallbackStore store = h.attach(CallbackStore.class);
        Instant cutoff = policy.cutoff(now);
        List<Lapsed> lapsed = new ArrayList<>();
        for (Callback c : store.rekeyingSince(cutoff, BATCH)) {
            Transition t = CallbackStateMachine.apply(c.state(), Trigger.REKEYING_LAPSED);
            if (store.endLapsedRekeying(c.id(), cutoff, now) == 0) continue;   // verified (or changed) meanwhile
            int dropped = effects.apply(h, c.id(), t, DROP_REASON, now).dropped();
            lapsed.add(new Lapsed(c.id(), c.accountId(), c.uri(), dropped));
        }
        return lapsed;
    }
}
