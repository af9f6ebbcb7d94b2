package dev.ledgerlink.delivery;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.ServiceException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The queue's public face: queue a verification request, read a callback's delivery history,
 * redeliver. Whatever is queued here is durable before the method returns; the engine of this
 * process is woken at once, other processes find it when they next poll.
 */
public final class DeliveryService {
    private final Jdbi jdbi;
    private final Clock clock;
    private volatile Runnable wake = () -> {};

    public DeliveryService(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /** Called by the engine of this process so new work starts without waiting for a poll. */
    public void onEnqueued(Runnable wake) {
        this.wake = wake;
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
        long id = jdbi.withHandle(h -> h.createUpdate(DeliveryStore.INSERT_VERIFICATION)
                .bind("callbackId", callbackId).bind("now", DbTime.now(clock))
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one());
        enqueued();
        return id;
    }

    /**
     * Fan-out of a just-stored event, inside the publisher's transaction: one delivery per verified,
     * enabled callback of the account subscribed to the name or its noun, in one INSERT ... SELECT
     * (an events.FanOut, handed to the publisher by the wiring).
     */
    public int fanOut(org.jdbi.v3.core.Handle h, long eventId, String accountId, String name, String noun, java.time.Instant now) {
        return h.createUpdate(DeliveryStore.FAN_OUT).bind("eventId", eventId).bind("accountId", accountId)
                .bind("name", name).bind("noun", noun).bind("now", now).execute();
    }

    /** A page of one callback's deliveries, newest first, each with its attempts. */
    public DeliveryPage history(String accountId, long callbackId, int page, int perPage) {
        if (page < 1) throw ServiceException.invalid("page", "must be 1 or more");
        if (perPage < 1 || perPage > 100) throw ServiceException.invalid("per_page", "must be between 1 and 100");
        return jdbi.withHandle(h -> {
            boolean exists = h.createQuery("select count(*) from callbacks where id = :id and (:accountId is null or account_id = :accountId)")
                    .bind("id", callbackId).bind("accountId", accountId).mapTo(Integer.class).one() > 0;
            if (!exists) throw ServiceException.notFound();
            long total = h.createQuery("select count(*) from deliveries where callback_id = :id")
                    .bind("id", callbackId).mapTo(Long.class).one();
            List<DeliveryRecord> rows = h.createQuery(DeliveryHistory.PAGE)
                    .bind("id", callbackId).bind("limit", perPage).bind("offset", (long) (page - 1) * perPage)
                    .map(new DeliveryHistory.RecordMapper()).list();
            Map<Long, List<DeliveryRecord.Attempt>> attempts = new LinkedHashMap<>();
            if (!rows.isEmpty()) {
                h.createQuery(DeliveryHistory.ATTEMPTS).bindList("ids", rows.stream().map(DeliveryRecord::id).toList())
                        .map(new DeliveryHistory.AttemptMapper())
                        .forEach(a -> attempts.computeIfAbsent(a.deliveryId(), k -> new ArrayList<>()).add(a));
            }
            List<DeliveryRecord> withAttempts = rows.stream()
                    .map(r -> r.withAttempts(attempts.getOrDefault(r.id(), List.of()))).toList();
            int pages = (int) Math.max(1, (total + perPage - 1) / perPage);
            return new DeliveryPage(page, pages, perPage, total, withAttempts);
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

    public java.util.Optional<DeliveryRecord> find(long deliveryId) {
        return jdbi.withHandle(h -> h.createQuery(DeliveryHistory.ONE).bind("id", deliveryId)
                .map(new DeliveryHistory.RecordMapper()).findOne());
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
        return jdbi.withHandle(h -> scoped(h.createQuery(DeliveryActivity.PER_MINUTE), accountIds)
                .bind("since", since).map(new DeliveryActivity.MinuteMapper()).list());
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
