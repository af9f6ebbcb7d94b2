package dev.ledgerlink.delivery;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.store.WrittenOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * What was delivered, read: a callback's delivery history, the operators' search, one delivery, and
 * the console's activity across callbacks (the live tail, attempts per minute, each callback's latest
 * attempt). Reads only; the queue's writes are {@link DeliveryService}'s.
 */
public final class DeliveryReads {
    private final Jdbi jdbi;
    private final DeliveryHooks hooks;

    /** {@code hooks}: what development mode marks deliveries with in their history ({@link DeliveryHooks#NONE} otherwise). */
    public DeliveryReads(Jdbi jdbi, DeliveryHooks hooks) {
        this.jdbi = jdbi;
        this.hooks = hooks;
    }

    public record DeliveryPage(int page, int pages, int perPage, long total, List<DeliveryRecord> deliveries) {}

    /** A page of one callback's deliveries, newest first, each with its attempts. {@code accountId} null: any account. */
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

    /** The most matches the operators' search counts; past it the page says the total is at least that (Paging.Page#capped). */
    public static final long SEARCH_COUNT_CAP = 10_000;

    /**
     * Operators' search: deliveries of one callback or all, in one state or all, queued in
     * [since, until) (each bound optional), newest first, each with its attempts. The total is counted
     * up to {@link #SEARCH_COUNT_CAP}: a search of every delivery would otherwise count the whole
     * history for each page.
     */
    public Paging.Page<DeliveryRecord> search(Long callbackId, String state, Instant since, Instant until, Paging paging) {
        new Validation()
                .check(state == null || DeliveryState.of(state).isPresent(), "state", "must be pending, held, delivered or dropped")
                .check(since == null || until == null || since.isBefore(until), "since", "must be before until")
                .throwIfInvalid();
        return jdbi.withHandle(h -> {
            long fromId = since == null ? 0 : WrittenOrder.firstIdAtOrAfter(h, "deliveries", "created_at", since.minus(WrittenOrder.OUT_OF_ORDER));
            long toId = until == null ? Long.MAX_VALUE
                    : WrittenOrder.firstIdAtOrAfter(h, "deliveries", "created_at", until.plus(WrittenOrder.OUT_OF_ORDER));
            String filter = DeliveryHistory.filter(callbackId != null, state != null, since != null, until != null);
            long counted = filtered(h.createQuery(DeliveryHistory.countFiltered(filter)), fromId, toId, callbackId, state, since, until)
                    .bind("cap", SEARCH_COUNT_CAP + 1).mapTo(Long.class).one();
            List<DeliveryRecord> rows = filtered(h.createQuery(DeliveryHistory.pageFiltered(filter)), fromId, toId, callbackId, state, since, until)
                    .bind("limit", paging.perPage()).bind("offset", paging.offset())
                    .map(new DeliveryHistory.RecordMapper()).list();
            List<DeliveryRecord> page = withAttempts(h, rows);
            return counted > SEARCH_COUNT_CAP ? paging.pageOfAtLeast(SEARCH_COUNT_CAP, page) : paging.page(counted, page);
        });
    }

    /** Binds the search's id range and the filters it has (DeliveryHistory.filter). */
    private static Query filtered(Query q, long fromId, long toId, Long callbackId, String state, Instant since, Instant until) {
        q.bind("fromId", fromId).bind("toId", toId);
        if (callbackId != null) q.bind("callbackId", callbackId);
        if (state != null) q.bind("state", state);
        if (since != null) q.bind("since", since);
        if (until != null) q.bind("until", until);
        return q;
    }

    /** One delivery, without its attempts. */
    public Optional<DeliveryRecord> find(long deliveryId) {
        return jdbi.withHandle(h -> find(h, deliveryId));
    }

    /** One delivery, without its attempts, in the caller's handle. */
    Optional<DeliveryRecord> find(Handle h, long deliveryId) {
        return DeliveryHistory.find(h, deliveryId).map(d -> marked(h, List.of(d)).getFirst());
    }

    /** Every attempt of these deliveries in one query (no N+1), and what development mode marks them with. */
    private List<DeliveryRecord> withAttempts(Handle h, List<DeliveryRecord> rows) {
        Map<Long, List<DeliveryRecord.Attempt>> attempts = new LinkedHashMap<>();
        if (!rows.isEmpty()) {
            h.createQuery(DeliveryHistory.ATTEMPTS).bindList("ids", rows.stream().map(DeliveryRecord::id).toList())
                    .map(new DeliveryHistory.AttemptMapper())
                    .forEach(a -> attempts.computeIfAbsent(a.deliveryId(), k -> new ArrayList<>()).add(a));
        }
        return marked(h, rows.stream().map(r -> r.withAttempts(attempts.getOrDefault(r.id(), List.of()))).toList());
    }

    private List<DeliveryRecord> marked(Handle h, List<DeliveryRecord> rows) {
        if (rows.isEmpty()) return rows;
        Map<Long, Map<String, Object>> marks = hooks.marks(h, rows.stream().map(DeliveryRecord::id).toList());
        return marks.isEmpty() ? rows : rows.stream().map(r -> marks.containsKey(r.id()) ? r.withTest(marks.get(r.id())) : r).toList();
    }

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
        return DeliveryActivity.summed(jdbi.withHandle(h -> (accountIds == null ? h.createQuery(DeliveryActivity.PER_MINUTE)
                : h.createQuery(DeliveryActivity.PER_MINUTE_OF_ACCOUNTS).bindList("accountIds", List.copyOf(accountIds)))
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
