package dev.ledgerlink.delivery;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.paging.Paging;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The queue's public face: queue a verification request, read a callback's delivery history,
 * redeliver one delivery, recover a callback's dropped deliveries of a time window. Whatever is queued here is durable before the method returns; the engine of this
 * process is woken at once, other processes find it when they next poll.
 */
public final class DeliveryService {
    private final Jdbi jdbi;
    private final Clock clock;
    private final Recovery recovery;
    private volatile Runnable wake = () -> {};
    private volatile DeliveryEngine engine;
    private volatile Supplier<Optional<Duration>> stalled = Optional::empty;

    public DeliveryService(Jdbi jdbi, Clock clock, Recovery recovery) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.recovery = recovery;
    }

    /** Called by the engine of this process so new work starts without waiting for a poll. */
    public void onEnqueued(Runnable wake) {
        this.wake = wake;
    }

    /**
     * Called when this process runs an engine: the deliveries a publish queues are then leased to it in
     * the publisher's transaction and handed to it after the commit (see {@link #fanOut}).
     */
    public void handOffTo(DeliveryEngine engine) {
        this.engine = engine;
    }

    /** Called by the engine of this process so health checks see a dispatcher that is stuck. */
    public void onStallCheck(Supplier<Optional<Duration>> stalled) {
        this.stalled = stalled;
    }

    /** How long this process's delivery dispatcher has been stuck in one claim pass, when it is. */
    public Optional<Duration> dispatcherStalled() {
        return stalled.get();
    }

    /** Tells this process's engine that work was just committed. */
    public void enqueued() {
        wake.run();
    }

    /**
     * Durably queues the verification request of a callback. The code, account and user are read from
     * the callbacks row when the request is sent, so the latest code (after a resend) is the one used
     * and no secret is copied here. Returns the delivery id.
     */
    public long enqueueVerification(long callbackId) {
        long id = jdbi.withHandle(h -> enqueueVerification(h, callbackId));
        enqueued();
        return id;
    }

    /**
     * In the caller's transaction (the callback's own): the engine is woken by {@link #enqueued()} after
     * the commit. The first one also makes the callback's latest-attempt row.
     */
    public long enqueueVerification(Handle h, long callbackId) {
        h.createUpdate(DeliveryStore.ADD_LAST_ATTEMPT_ROW).bind("callbackId", callbackId).execute();
        return h.createUpdate(DeliveryStore.INSERT_VERIFICATION)
                .bind("callbackId", callbackId).bind("now", DbTime.now(clock))
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    }

    /**
     * Fan-out of a just-stored event, inside the publisher's transaction: one delivery per verified,
     * enabled callback of the account subscribed to the name or its noun, in one INSERT ... SELECT
     * (the events.FanOut the wiring hands to the publisher).
     *
     * <p>When this process's engine has a free slot, the rows are inserted already leased to it and read
     * back in the same transaction, and after the commit the engine starts sending them: no claim pass,
     * no statements beyond the insert and that read. The rows stay the durable record (a crash before
     * the outcome is recorded leaves them to whichever process claims them when the lease ends, as
     * after any claim). Otherwise (no engine here, as in the CLI; or every slot busy) they are queued
     * unleased and this process's engine, if any, is woken to claim them.
     */
    public Queued fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now) {
        DeliveryEngine direct = engine;
        DeliveryEngine.Lease lease = direct == null ? null : direct.leaseForPublish(now);
        if (lease == null) {
            int queued = DeliveryStore.fanOut(h, eventId, accountId, name, noun, now);
            return queued == 0 ? Queued.NONE : new Queued(queued, this::enqueued);
        }
        List<ClaimedDelivery> leased = DeliveryStore.fanOutLeased(h, direct.postgres(), eventId, accountId, name, noun, now,
                lease.token(), lease.until());
        return leased.isEmpty() ? Queued.NONE : new Queued(leased.size(), () -> direct.start(lease, leased));
    }

    /** What a fan-out queued, and what its publisher runs once its transaction has committed (never before). */
    public record Queued(int deliveries, Runnable afterCommit) {
        static final Queued NONE = new Queued(0, () -> {});
    }

    /** A page of one callback's deliveries, newest first, each with its attempts. */
    public DeliveryPage history(String accountId, long callbackId, int page, int perPage) {
        Paging paging = Paging.of(page, perPage);
        return jdbi.withHandle(h -> {
            boolean exists = h.createQuery("select count(*) from callbacks where id = :id and (:accountId is null or account_id = :accountId)")
                    .bind("id", callbackId).bind("accountId", accountId).mapTo(Integer.class).one() > 0;
            if (!exists) throw ServiceException.notFound();
            long total = h.createQuery("select count(*) from deliveries where callback_id = :id")
                    .bind("id", callbackId).mapTo(Long.class).one();
            List<DeliveryRecord> rows = h.createQuery(DeliveryHistory.PAGE)
                    .bind("id", callbackId).bind("limit", paging.perPage()).bind("offset", paging.offset())
                    .map(new DeliveryHistory.RecordMapper()).list();
            List<DeliveryRecord> withAttempts = withAttempts(h, rows);
            var p = paging.page(total, withAttempts);
            return new DeliveryPage(p.page(), p.pages(), p.perPage(), total, withAttempts);
        });
    }

    /** Queues a delivery again from its first attempt (same message id, so receivers can de-duplicate). */
    public DeliveryRecord redeliver(long deliveryId) {
        int updated = jdbi.withHandle(h -> h.createUpdate("""
                        update deliveries set state = 'pending', attempts = 0, next_attempt_at = :now, lease_owner = null,
                               drop_reason = null, finished_at = null
                        where id = :id and state <> 'pending'""")
                .bind("id", deliveryId).bind("now", DbTime.now(clock)).execute());
        DeliveryRecord r = find(deliveryId).orElseThrow(() -> ServiceException.notFound("No delivery " + deliveryId + "."));
        if (updated == 0 && !"pending".equals(r.state())) throw ServiceException.notFound("No delivery " + deliveryId + ".");
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
     * is not verified and enabled, since the engine would drop them again at once.
     */
    public Recovered recover(String accountId, long callbackId, String since, String until) {
        Instant now = DbTime.now(clock);
        Recovery.Window w = recovery.window(since, until, now);
        Recovered r = jdbi.inTransaction(h -> {
            var callback = h.createQuery("select verified, disabled from callbacks where id = :id and (:accountId is null or account_id = :accountId)")
                    .bind("id", callbackId).bind("accountId", accountId)
                    .map((rs, ctx) -> new boolean[] {rs.getBoolean("verified"), rs.getBoolean("disabled")}).findOne()
                    .orElseThrow(ServiceException::notFound);
            if (!callback[0] || callback[1]) {
                throw ServiceException.of(ServiceException.Kind.CONFLICT, "Callback " + callbackId + " is "
                        + (callback[1] ? "disabled" : "not verified") + ": its deliveries would be dropped again. "
                        + (callback[1] ? "Enable it (or resend its verification code and verify it) first." : "Verify it first."));
            }
            List<Long> ids = h.createQuery(DeliveryStore.RECOVERABLE).bind("callbackId", callbackId)
                    .bind("since", w.since()).bind("until", w.until()).mapTo(Long.class).list();
            var batch = h.prepareBatch(DeliveryStore.REQUEUE);
            for (int i = 0; i < ids.size(); i++) {
                batch.bind("id", ids.get(i)).bind("next", recovery.dueAt(now, i)).add();
            }
            int requeued = ids.isEmpty() ? 0 : java.util.Arrays.stream(batch.execute()).sum();
            return new Recovered(callbackId, w, requeued, ids.isEmpty() ? null : now,
                    ids.isEmpty() ? null : recovery.dueAt(now, ids.size() - 1));
        });
        if (r.requeued() > 0) enqueued();
        return r;
    }

    /** Drops every event delivery still queued for the callback (an operator disabled it); how many were dropped. */
    public int dropPending(long callbackId, String reason) {
        return jdbi.withHandle(h -> h.createUpdate(DeliveryStore.DROP_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", callbackId)
                .bind("reason", reason).bind("now", DbTime.now(clock)).execute());
    }

    /** The states a delivery can be in. */
    public static final java.util.Set<String> STATES = java.util.Set.of("pending", "delivered", "dropped");

    /**
     * Operators' search: deliveries of one callback or all, in one state or all, queued in
     * [since, until) (each bound optional), newest first, each with its attempts.
     */
    public Paging.Page<DeliveryRecord> search(Long callbackId, String state, Instant since, Instant until, Paging paging) {
        new dev.ledgerlink.errors.Validation()
                .check(state == null || STATES.contains(state), "state", "must be pending, delivered or dropped")
                .check(since == null || until == null || since.isBefore(until), "since", "must be before until")
                .throwIfInvalid();
        return jdbi.withHandle(h -> {
            long total = h.createQuery(DeliveryHistory.COUNT_FILTERED).bind("callbackId", callbackId).bind("state", state)
                    .bind("since", since).bind("until", until).mapTo(Long.class).one();
            List<DeliveryRecord> rows = h.createQuery(DeliveryHistory.PAGE_FILTERED).bind("callbackId", callbackId).bind("state", state)
                    .bind("since", since).bind("until", until).bind("limit", paging.perPage()).bind("offset", paging.offset())
                    .map(new DeliveryHistory.RecordMapper()).list();
            return paging.page(total, withAttempts(h, rows));
        });
    }

    public Optional<DeliveryRecord> find(long deliveryId) {
        return jdbi.withHandle(h -> h.createQuery(DeliveryHistory.ONE).bind("id", deliveryId)
                .map(new DeliveryHistory.RecordMapper()).findOne());
    }

    /** Every attempt of these deliveries in one query (no N+1). */
    private static List<DeliveryRecord> withAttempts(Handle h, List<DeliveryRecord> rows) {
        Map<Long, List<DeliveryRecord.Attempt>> attempts = new LinkedHashMap<>();
        if (!rows.isEmpty()) {
            h.createQuery(DeliveryHistory.ATTEMPTS).bindList("ids", rows.stream().map(DeliveryRecord::id).toList())
                    .map(new DeliveryHistory.AttemptMapper())
                    .forEach(a -> attempts.computeIfAbsent(a.deliveryId(), k -> new ArrayList<>()).add(a));
        }
        return rows.stream().map(r -> r.withAttempts(attempts.getOrDefault(r.id(), List.of()))).toList();
    }

    public record DeliveryPage(int page, int pages, int perPage, long total, List<DeliveryRecord> deliveries) {}

    // Activity across callbacks (the console). accountIds null: every account.

    /** The newest attempts after {@code afterAttemptId} of these accounts' callbacks, newest first, at most {@code limit}. */
    public List<DeliveryActivity.TailEntry> attemptsAfter(Collection<String> accountIds, long afterAttemptId, int limit) {
        if (accountIds != null && accountIds.isEmpty()) return List.of();
        return jdbi.withHandle(h -> scoped(h.createQuery(DeliveryActivity.TAIL), accountIds)
                .bind("after", afterAttemptId).bind("limit", limit).map(new DeliveryActivity.TailMapper()).list());
    }

    /** The id of the newest attempt of any callback (0 when there is none): where a live tail starts. */
    public long latestAttemptId() {
        return jdbi.withHandle(h -> h.createQuery(DeliveryActivity.LATEST_ID).mapTo(Long.class).one());
    }

    /** Attempts per minute and outcome since {@code since}, for these accounts' callbacks. */
    public List<DeliveryActivity.MinuteCount> attemptsPerMinute(Collection<String> accountIds, Instant since) {
        if (accountIds != null && accountIds.isEmpty()) return List.of();
        return DeliveryActivity.summed(jdbi.withHandle(h -> scoped(h.createQuery(DeliveryActivity.PER_MINUTE), accountIds)
                .bind("since", since).map(new DeliveryActivity.MinuteMapper()).list()));
    }

    /** Each of these callbacks' latest attempt, by callback id (absent: never attempted). */
    public Map<Long, DeliveryActivity.LastAttempt> lastAttempts(Collection<Long> callbackIds) {
        if (callbackIds.isEmpty()) return Map.of();
        Map<Long, DeliveryActivity.LastAttempt> out = new LinkedHashMap<>();
        jdbi.useHandle(h -> h.createQuery(DeliveryActivity.LAST_ATTEMPTS).bindList("callbackIds", List.copyOf(callbackIds))
                .map(new DeliveryActivity.LastMapper()).forEach(a -> out.put(a.callbackId(), a)));
        return out;
    }

    private static Query scoped(Query q, Collection<String> accountIds) {
        return q.bind("all", accountIds == null).bindList("accountIds", accountIds == null ? List.of("") : List.copyOf(accountIds));
    }
}
