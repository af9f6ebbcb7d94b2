package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.EventReceivers;
import dev.ledgerlink.callbacks.StateColumns;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The queue's writes: a publish's fan-out, one delivery redelivered, a callback's dropped deliveries
 * of a time window recovered (what the callbacks capability queues and drops goes through
 * {@link CallbackDeliveries}, in its own transactions). Whatever is queued here is durable
 * before the method returns; this process's engine, if it runs one, is told through the
 * {@link HandOff} given at construction (other processes find the work when they next poll).
 * Reads are {@link DeliveryReads}'.
 */
public final class DeliveryService {
    private final Jdbi jdbi;
    private final Database.Dialect dialect;
    private final Clock clock;
    private final Recovery recovery;
    private final HandOff engine;
    private final DeliveryOrder order;
    private final DeliveryReads reads;

    /**
     * {@code engine}: this process's delivery engine, or {@link HandOff#NONE} when it runs none (the
     * CLI); {@code reads}: how a redelivered delivery is shown.
     */
    public DeliveryService(Jdbi jdbi, Database.Dialect dialect, Clock clock, Recovery recovery, HandOff engine, DeliveryOrder order,
                           DeliveryReads reads) {
        this.jdbi = jdbi;
        this.reads = reads;
        this.order = order;
        this.dialect = dialect;
        this.clock = clock;
        this.recovery = recovery;
        this.engine = engine;
    }

    /** How long this process's delivery dispatcher has been stuck in one claim pass, when it is. */
    public Optional<Duration> dispatcherStalled() {
        return engine.stalled();
    }

    /** Tells this process's engine that work was just committed. */
    public void enqueued() {
        engine.wake();
    }

    /**
     * Fan-out of a just-stored event, inside the publisher's transaction: one delivery per callback of
     * the account that receives events (verified, or re-keying: its delivery is then held until the
     * new code is verified) and is subscribed to the name or its noun, in one INSERT ... SELECT (the
     * events.FanOut the wiring hands to the publisher). The count includes the held ones.
     *
     * <p>When this process's engine can start them at once, the rows are inserted already leased to it
     * and read back in the same transaction, and after the commit the engine starts sending them: no
     * claim pass, no statements beyond the insert and that read. The rows stay the durable record (a
     * crash before the outcome is recorded leaves them to whichever process claims them when the lease
     * ends, as after any claim). Otherwise (no engine here, as in the CLI; or every slot busy) they are
     * queued unleased and this process's engine, if any, is woken to claim them. An ordered callback's
     * delivery is always queued unleased: the claim's rule decides when it may go (DeliveryOrder).
     */
    public Queued fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now) {
        Optional<HandOff.Lease> lease = engine.leaseForPublish(now);
        if (lease.isEmpty()) {
            int queued = DeliveryStore.fanOut(h, eventId, accountId, name, noun, now);
            return queued == 0 ? Queued.NONE : new Queued(queued, this::enqueued);
        }
        HandOff.Lease l = lease.get();
        DeliveryStore.Published p = DeliveryStore.fanOutLeased(h, dialect, eventId, accountId, name, noun, now, l.token(), l.until());
        if (p.queued() == 0) return Queued.NONE;
        List<ClaimedDelivery> leased = p.leased();
        if (leased.size() == p.queued()) return new Queued(p.queued(), () -> engine.send(l, leased));
        // Some were queued unleased: held (re-keying), or an ordered callback's, which the claim's rule lets go in turn.
        return new Queued(p.queued(), () -> {
            if (!leased.isEmpty()) engine.send(l, leased);
            enqueued();
        });
    }

    /**
     * Fan-out of a just-stored event, inside the publisher's transaction, first due at {@code due}
     * (development mode's test events: their delay, or their turn in an ordered call), and queued
     * unleased, for the engine to claim: only a claim gives development mode's hooks a say in how a
     * delivery is sent (DeliveryHooks), so a publish's hand-off carries plain deliveries alone.
     */
    public Queued fanOutDueAt(Handle h, long eventId, String accountId, String name, String noun, Instant now, Instant due) {
        int queued = DeliveryStore.fanOut(h, eventId, accountId, name, noun, now, due);
        return queued == 0 ? Queued.NONE : new Queued(queued, this::enqueued);
    }

    /** What a fan-out queued, and what its publisher runs once its transaction has committed (never before). */
    public record Queued(int deliveries, Runnable afterCommit) {
        static final Queued NONE = new Queued(0, () -> {});
    }

    /**
     * Queues a delivery again from its first attempt (same message id, so receivers can de-duplicate).
     * One still queued (pending, or held) is left as it is; one of a re-keying callback is held again
     * by the engine when claimed. An ordered callback's takes its place in the order again
     * (DeliveryOrder#reorder).
     */
    public DeliveryRecord redeliver(long deliveryId) {
        Instant at = DbTime.now(clock);
        DeliveryRecord r = jdbi.inTransaction(h -> {
            int updated = h.createUpdate(DeliveryStore.REDELIVER).bind("id", deliveryId).bind("next", at).execute();
            DeliveryRecord now = reads.find(h, deliveryId).orElseThrow(() -> ServiceException.notFound("No delivery " + deliveryId + "."));
            if (updated == 0 && !now.state().queued()) throw ServiceException.notFound("No delivery " + deliveryId + ".");
            if (updated > 0 && now.kind() == DeliveryKind.EVENT) {
                order.reorderIfOrdered(h, now.callbackId(), at);
                return reads.find(h, deliveryId).orElseThrow();
            }
            return now;
        });
        enqueued();
        return r;
    }

    /** What a recover did: how many deliveries were re-queued, and when the first and last of them fall due. */
    public record Recovered(long callbackId, Recovery.Window window, int requeued, Instant firstDueAt, Instant lastDueAt) {}

    /**
     * Re-queues the callback's event deliveries that were dropped (retries exhausted, or dropped when
     * the callback was disabled) and were queued in the window, each from its first attempt and under
     * its own message id (webhook-id), paced by {@link Recovery}. {@code accountId} null: any account
     * (operators); else the callback must be that account's (404 otherwise). A 409 when the callback
     * does not send events now (not verified, re-keying, or disabled), since the engine would drop (or
     * hold) them again at once. Held deliveries dropped when a re-keying lapsed are recovered like any.
     */
    public Recovered recover(String accountId, long callbackId, String since, String until) {
        Instant now = DbTime.now(clock);
        Recovery.Window w = recovery.window(since, until, now);
        Recovered r = jdbi.inTransaction(h -> {
            State state = h.createQuery("select verified, disabled, rekeying_since from callbacks where id = :id and (:accountId is null or account_id = :accountId)")
                    .bind("id", callbackId).bind("accountId", accountId)
                    .map((rs, ctx) -> StateColumns.of(rs.getBoolean("verified"), rs.getBoolean("disabled"),
                            rs.getObject("rekeying_since") != null)).findOne()
                    .orElseThrow(ServiceException::notFound);
            if (!EventReceivers.sendsNow(state)) {
                boolean disabled = state == State.DISABLED;
                throw ServiceException.of(ServiceException.Kind.CONFLICT, "Callback " + callbackId + " is "
                        + (disabled ? "disabled" : "not verified") + ": " + (state == State.REKEYING
                                ? "it awaits verification of its new code, and recovered deliveries would only be held. "
                                : "its deliveries would be dropped again. ")
                        + (disabled ? "Enable it (or resend its verification code and verify it) first." : "Verify it first."));
            }
            List<Long> ids = h.createQuery(DeliveryStore.RECOVERABLE).bind("callbackId", callbackId)
                    .bind("since", w.since()).bind("until", w.until()).mapTo(Long.class).list();
            var batch = h.prepareBatch(DeliveryStore.REQUEUE);
            for (int i = 0; i < ids.size(); i++) {
                batch.bind("id", ids.get(i)).bind("next", recovery.dueAt(now, i)).add();
            }
            int requeued = ids.isEmpty() ? 0 : Arrays.stream(batch.execute()).sum();
            if (requeued > 0) order.reorderIfOrdered(h, callbackId, now);
            return new Recovered(callbackId, w, requeued, ids.isEmpty() ? null : now,
                    ids.isEmpty() ? null : recovery.dueAt(now, ids.size() - 1));
        });
        if (r.requeued() > 0) enqueued();
        return r;
    }
}
