package dev.ledgerlink.delivery;

import dev.ledgerlink.store.H2IndexChoice;
import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** The deliveries and delivery_attempts tables, and the two columns of callbacks the engine owns. */
final class DeliveryStore {
    private DeliveryStore() {}

    static final String INSERT_VERIFICATION = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            values (:callbackId, null, 'verification', 'pending', 0, :now, :now)""";

    /** The verified, enabled callbacks of the account subscribed to the event's name or its noun. */
    private static final String SUBSCRIBERS = """

            from callbacks c
            where c.account_id = :accountId and c.event_noun = :noun and (c.event = :name or c.event = :noun)
              and c.verified = true and c.disabled = false""";

    /** Fan-out of one event: a delivery per subscriber, queued unleased. */
    static final String FAN_OUT = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            select c.id, :eventId, 'event', 'pending', 0, :now, :now""" + SUBSCRIBERS;

    /**
     * The same fan-out, leased in the insert to this process's engine, which sends the rows as soon as
     * the publisher has committed (no claim pass): next_attempt_at is the lease's end, so another
     * process takes them over only if this one dies before recording an outcome.
     */
    static final String FAN_OUT_LEASED = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, lease_owner, created_at)
            select c.id, :eventId, 'event', 'pending', 0, :leaseUntil, :token, :now""" + SUBSCRIBERS;

    /** PostgreSQL: take due rows nobody else is claiming right now, in one statement. */
    static final String CLAIM_POSTGRES = """
            update deliveries set lease_owner = :token, next_attempt_at = :leaseUntil
            where id in (select id from deliveries
                         where state = 'pending' and next_attempt_at <= :now and callback_id not in (<busy>)
                         order by next_attempt_at limit :limit
                         for update skip locked)
            returning id""";

    /**
     * H2: candidates first, then one conditional UPDATE per row; only rows still due are taken.
     * Ordered by both columns of deliveries_due: ordered by next_attempt_at alone, H2 does not see
     * that the index already gives that order and sorts every due row for each claim (313 ms a pass
     * with 300,000 due, against 2 ms read in index order).
     */
    static final String CANDIDATES = """
            select id from deliveries
            where state = 'pending' and next_attempt_at <= :now and callback_id not in (<busy>)
            order by state, next_attempt_at limit :limit""";

    /**
     * The re-check gives H2 no index to pick: given plain {@code state = ...} and
     * {@code next_attempt_at <= ...}, H2 picks the deliveries_due index over the primary key and
     * scans every due row for each single-row update.
     */
    static final String CLAIM_ONE = """
            update deliveries set lease_owner = :token, next_attempt_at = :leaseUntil
            where id = :id and\s""" + H2IndexChoice.withoutIndex("state = 'pending' and next_attempt_at <= :now");

    private static final String LOAD = """
            select d.id, d.callback_id, d.kind, d.attempts, d.event_id,
                   e.name, e.object_id, e.account_id as event_account_id, e.user_id as event_user_id,
                   c.uri, c.verifier_sealed, c.account_id as callback_account_id, c.user_id as callback_user_id,
                   c.verified, c.disabled, c.failing_since
            from deliveries d
            join callbacks c on c.id = d.callback_id
            left join events e on e.id = d.event_id
            where d.lease_owner = :token and\s""";

    /**
     * The rows a claim took, found by their ids (the candidates it tried; the lease tells which it
     * got). No index on the lease owner: on H2 its entries, keyed by random tokens, were written to
     * pages all over the index by every claim and every outcome (docs/BENCHMARKS.md). No condition on
     * the state either, which would offer the planners deliveries_due (PostgreSQL took it, with every
     * pending row behind it, when few rows were pending at its last statistics): a row holding a
     * lease is pending, since every statement that ends or gives up a lease clears lease_owner.
     */
    static final String LOAD_CLAIMED = LOAD + "d.id in (<ids>)";

    /** The rows a publish inserted leased, found through the event's index. */
    static final String LOAD_PUBLISHED = LOAD + "d.event_id = :eventId";

    // State changes below apply only while the worker still holds the lease. Each statement finds its
    // row by primary key; the coalesce kept H2 off the lease owner's index, which V26 dropped.
    static final String RELEASE = """
            update deliveries set lease_owner = null, next_attempt_at = :now
            where id = :id and coalesce(lease_owner, '') = :token""";

    /** Skips the row when the delivery is gone meanwhile (its callback was deleted). */
    static final String INSERT_ATTEMPT = """
            insert into delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error,
                                           request_headers, request_body, response_headers, response_body)
            select id, :attempt, :attemptedAt, :status, :durationMs, :error, :requestHeaders, :requestBody, :responseHeaders, :body
            from deliveries where id = :deliveryId""";

    /**
     * A callback's latest attempt (callback_last_attempts, the console's list reads it), one row per
     * callback and batch. The row exists from the callback's first verification request on
     * ({@link #ADD_LAST_ATTEMPT_ROW}), so this only updates it: concurrent writers (two nodes) queue
     * on the row instead of racing to insert it, and an older attempt never replaces a newer one.
     * A callback deleted meanwhile has no row left to update.
     */
    static final String RECORD_LAST_ATTEMPT = """
            update callback_last_attempts set delivery_id = :deliveryId, attempt = :attempt, attempted_at = :attemptedAt,
                   status_code = :status, duration_ms = :durationMs, error = :error
            where callback_id = :callbackId and (attempted_at is null or attempted_at <= :attemptedAt)""";

    /** The callback's latest-attempt row, still without an attempt; in the transaction of its verification request. */
    static final String ADD_LAST_ATTEMPT_ROW = """
            insert into callback_last_attempts (callback_id)
            select cast(:callbackId as bigint) where not exists (select 1 from callback_last_attempts where callback_id = :callbackId)""";

    static final String MARK_DELIVERED = """
            update deliveries set state = 'delivered', attempts = :attempts, lease_owner = null, finished_at = :now
            where id = :id and coalesce(lease_owner, '') = :token""";

    static final String SCHEDULE_RETRY = """
            update deliveries set attempts = :attempts, next_attempt_at = :next, lease_owner = null
            where id = :id and coalesce(lease_owner, '') = :token""";

    static final String MARK_DROPPED = """
            update deliveries set state = 'dropped', attempts = :attempts, drop_reason = :reason, lease_owner = null, finished_at = :now
            where id = :id and coalesce(lease_owner, '') = :token""";

    static final String DROP_PENDING_EVENTS_OF_CALLBACK = """
            update deliveries set state = 'dropped', drop_reason = :reason, lease_owner = null, finished_at = :now
            where callback_id = :callbackId and state = 'pending' and kind = 'event'""";

    /** Recover: a callback's dropped event deliveries queued in [since, until), oldest first. */
    static final String RECOVERABLE = """
            select id from deliveries
            where callback_id = :callbackId and state = 'dropped' and kind = 'event'
              and created_at >= :since and created_at < :until
            order by id""";

    /** Back to the queue from the first attempt; same row, so the same message id. Only if still dropped. */
    static final String REQUEUE = """
            update deliveries set state = 'pending', attempts = 0, next_attempt_at = :next, lease_owner = null,
                   drop_reason = null, finished_at = null
            where id = :id and state = 'dropped'""";

    static final String QUEUE_DEPTH = "select count(*) from deliveries where state = 'pending'";

    /** What a claim with this token took of these candidates. */
    static List<ClaimedDelivery> loadClaimed(Handle h, String token, List<Long> candidates) {
        if (candidates.isEmpty()) return List.of();
        return h.createQuery(LOAD_CLAIMED).bind("token", token).bindList("ids", candidates).map(new ClaimedMapper()).list();
    }

    /** The deliveries of this event a publish inserted leased with this token. */
    static List<ClaimedDelivery> loadPublished(Handle h, String token, long eventId) {
        return h.createQuery(LOAD_PUBLISHED).bind("token", token).bind("eventId", eventId).map(new ClaimedMapper()).list();
    }

    static final class ClaimedMapper implements RowMapper<ClaimedDelivery> {
        @Override
        public ClaimedDelivery map(ResultSet rs, StatementContext ctx) throws SQLException {
            long eventId = rs.getLong("event_id");
            Long event = rs.wasNull() ? null : eventId;
            return new ClaimedDelivery(rs.getLong("id"), rs.getLong("callback_id"), rs.getString("kind"), rs.getInt("attempts"),
                    event, rs.getString("name"), rs.getLong("object_id"), rs.getString("event_account_id"), rs.getLong("event_user_id"),
                    rs.getString("uri"), rs.getString("verifier_sealed"), rs.getString("callback_account_id"), rs.getLong("callback_user_id"),
                    rs.getBoolean("verified"), rs.getBoolean("disabled"), TimeMapping.read(rs, "failing_since"));
        }
    }

}
