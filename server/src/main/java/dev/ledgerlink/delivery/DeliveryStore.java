package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.StateColumns;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.Deadlocks;
import dev.ledgerlink.store.H2IndexChoice;
import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.store.PlainJdbc;
import dev.ledgerlink.tracing.TraceHeaders;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The statements of the deliveries and delivery_attempts tables (V4) and of callback_last_attempts
 * (V25): queueing (a verification request, a publish's fan-out), claiming and giving back (the one
 * place the engine's claim conditions are written, per database), outcomes, drops, recover and
 * redeliver. Ordered delivery's part of the claim and of the fan-out is {@link DeliveryOrder}'s. The callbacks table is read here (subscribers, what sending needs) but written only
 * by the callbacks capability.
 */
final class DeliveryStore {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryStore.class);

    private DeliveryStore() {}

    static final String INSERT_VERIFICATION = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            values (:callbackId, null, 'verification', 'pending', 0, :now, :now)""";

    // The statements of a publish and of the result recorder run as plain JDBC (store/PlainJdbc),
    // so their parameters are positional: they are the hot path of every delivery.

    /** The callbacks of the account that receive events, subscribed to the event's name or its noun (account, noun, name, noun). */
    private static final String SUBSCRIBERS = """

            from callbacks c
            where c.account_id = ? and c.event_noun = ? and (c.event = ? or c.event = ?)
              and\s""" + StateColumns.RECEIVES_EVENTS;

    /**
     * A subscriber's new delivery is pending when its callback sends now, else held (re-keying: it
     * receives events but awaits verification of its new code). Held rows are never claimed.
     */
    private static final String PENDING_OR_HELD = "case when " + StateColumns.SENDS + " then 'pending' else 'held' end";

    /**
     * Fan-out of one event: a delivery per subscriber, queued unleased (event id, now, now, now, now,
     * then the subscribers'). An ordered callback's waits when one of it is waiting already (DeliveryOrder).
     */
    static final String FAN_OUT = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            select c.id, ?, 'event',\s""" + PENDING_OR_HELD + ", 0, " + DeliveryOrder.firstAttempt("?") + ", ?" + SUBSCRIBERS;

    /**
     * The same fan-out, leased in the insert to this process's engine, which sends the rows as soon as
     * the publisher has committed (no claim pass): next_attempt_at is the lease's end, so another
     * process takes them over only if this one dies before recording an outcome. A held row gets no
     * lease: it is not the engine's to send; nor does an ordered callback's, queued as by {@link #FAN_OUT}:
     * the claim's rule decides when it goes (DeliveryOrder). Event id, lease end, now, now, lease token,
     * now, then the subscribers'.
     */
    static final String FAN_OUT_LEASED = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, lease_owner, created_at)
            select c.id, ?, 'event',\s""" + PENDING_OR_HELD + ", 0, " + DeliveryOrder.firstAttempt("?")
            + ", case when c.ordered = false and " + StateColumns.SENDS + " then ? end, ?" + SUBSCRIBERS;

    /** PostgreSQL: take due rows nobody else is claiming right now, in one statement; an ordered callback's only in order. */
    static final String CLAIM_POSTGRES = """
            update deliveries set lease_owner = :token, next_attempt_at = :leaseUntil
            where id in (select id from deliveries
                         where state = 'pending' and next_attempt_at <= :now and callback_id not in (<busy>)
                           and\s""" + DeliveryOrder.CLAIMABLE_POSTGRES + """

                         order by next_attempt_at limit :limit
                         for update skip locked)
            returning id""";

    /**
     * H2: candidates first, then one conditional UPDATE per row; only rows still due are taken.
     * Ordered by both columns of deliveries_due: ordered by next_attempt_at alone, H2 does not see
     * that the index already gives that order and sorts every due row for each claim, which grows with
     * a backlog (docs/benchmarks-history.md, "Indexes H2 kept twice, and claims and sweeps that sorted").
     */
    static final String CANDIDATES = """
            select id from deliveries
            where state = 'pending' and next_attempt_at <= :now and callback_id not in (<busy>)
              and\s""" + DeliveryOrder.CLAIMABLE_H2 + """

            order by state, next_attempt_at limit :limit""";

    /**
     * The re-check gives H2 no index to pick: given plain {@code state = ...} and
     * {@code next_attempt_at <= ...}, H2 picks the deliveries_due index over the primary key and
     * scans every due row for each single-row update.
     */
    static final String CLAIM_ONE = """
            update deliveries set lease_owner = :token, next_attempt_at = :leaseUntil
            where id = :id and\s""" + H2IndexChoice.withoutIndex("state = 'pending' and next_attempt_at <= :now");

    /** What sending a delivery needs, from its row (d), its callback (c) and its event (e). */
    private static final String SENDABLE = """
            select d.id, d.callback_id, d.kind, d.attempts, d.event_id,
                   e.name, e.object_id, e.account_id as event_account_id, e.user_id as event_user_id,
                   c.uri, c.verifier_sealed, c.verifier_key, c.account_id as callback_account_id, c.user_id as callback_user_id,
                   c.verified, c.disabled, c.rekeying_since, c.failing_since, c.rate_limit, c.ordered, e.trace_parent, e.trace_state,
                   t.signature as test_signature, t.copies as test_copies, t.delay_seconds as test_delay, t.send_order as test_order,
                   t.sequence_id as test_sequence, t.sequence_position as test_position""";

    /** A test delivery's options (V37), found by its key; no row for any other delivery. */
    private static final String TEST_OPTIONS = "\nleft join test_deliveries t on t.delivery_id = d.id";

    private static final String LOAD = SENDABLE + """

            from deliveries d
            join callbacks c on c.id = d.callback_id
            left join events e on e.id = d.event_id""" + TEST_OPTIONS + """

            where\s""";

    /**
     * The rows a claim took, found by their ids (the candidates it tried; the lease tells which it
     * got). No index on the lease owner: on H2 its entries, keyed by random tokens, were written to
     * pages all over the index by every claim and every outcome (docs/benchmarks-history.md, "The lease
     * owner's index dropped"). No condition on
     * the state either, which would offer the planners deliveries_due (PostgreSQL took it, with every
     * pending row behind it, when few rows were pending at its last statistics): a row holding a
     * lease is pending, since every statement that ends or gives up a lease clears lease_owner.
     */
    static final String LOAD_CLAIMED = LOAD + "d.lease_owner = :token and d.id in (<ids>)";

    /** H2: the rows a publish inserted leased, found through the event's index (event id, lease token). */
    static final String LOAD_PUBLISHED = LOAD + "d.event_id = ? and d.lease_owner = ?";

    /**
     * PostgreSQL: the leased fan-out and the read-back in one statement, one round trip for the
     * publish's deliveries ({@link #FAN_OUT_LEASED}'s parameters). The event was inserted by the same
     * transaction; each callback is read again by its key.
     */
    static final String FAN_OUT_LEASED_RETURNING = "with d as (" + FAN_OUT_LEASED + """

            returning id, callback_id, kind, state, attempts, event_id)
            """ + SENDABLE + """

            from d
            join callbacks c on c.id = d.callback_id
            join events e on e.id = d.event_id""" + TEST_OPTIONS;

    // State changes below apply only while the worker still holds the lease. Each statement finds its
    // row by primary key; the coalesce kept H2 off the lease owner's index, which V26 dropped.
    /** Back to the queue unleased, due at :dueAt: now (no room for it here), or its turn (Pace); no attempt is counted. */
    static final String RELEASE = """
            update deliveries set lease_owner = null, next_attempt_at = :dueAt
            where id = :id and coalesce(lease_owner, '') = :token""";

    /** Skips the row when the delivery is gone meanwhile (its callback was deleted). */
    static final String INSERT_ATTEMPT = """
            insert into delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error,
                                           request_headers, request_body, response_headers, response_body)
            select id, ?, ?, ?, ?, ?, ?, ?, ?, ?
            from deliveries where id = ?""";

    /**
     * A callback's latest attempt (callback_last_attempts, the console's list reads it), one row per
     * callback and batch. The row exists from the callback's first verification request on
     * ({@link #ADD_LAST_ATTEMPT_ROW}), so this only updates it: concurrent writers (two nodes) queue
     * on the row instead of racing to insert it, and an older attempt never replaces a newer one.
     * A callback deleted meanwhile has no row left to update.
     */
    static final String RECORD_LAST_ATTEMPT = """
            update callback_last_attempts set delivery_id = ?, attempt = ?, attempted_at = ?,
                   status_code = ?, duration_ms = ?, error = ?
            where callback_id = ? and (attempted_at is null or attempted_at <= ?)""";

    /** The callback's latest-attempt row, still without an attempt; in the transaction of its verification request. */
    static final String ADD_LAST_ATTEMPT_ROW = """
            insert into callback_last_attempts (callback_id)
            select cast(:callbackId as bigint) where not exists (select 1 from callback_last_attempts where callback_id = :callbackId)""";

    static final String MARK_DELIVERED = """
            update deliveries set state = 'delivered', attempts = ?, lease_owner = null, finished_at = ?
            where id = ? and coalesce(lease_owner, '') = ?""";

    static final String SCHEDULE_RETRY = """
            update deliveries set attempts = ?, next_attempt_at = ?, lease_owner = null
            where id = ? and coalesce(lease_owner, '') = ?""";

    static final String MARK_DROPPED = """
            update deliveries set state = 'dropped', attempts = ?, drop_reason = ?, lease_owner = null, finished_at = ?
            where id = ? and coalesce(lease_owner, '') = ?""";

    static final String DROP_PENDING_EVENTS_OF_CALLBACK = """
            update deliveries set state = 'dropped', drop_reason = :reason, lease_owner = null, finished_at = :now
            where callback_id = :callbackId and state in ('pending', 'held') and kind = 'event'""";

    /** Re-keying: pending event deliveries wait, unleased (an attempt in flight then changes nothing but its attempt record). */
    static final String HOLD_PENDING_EVENTS_OF_CALLBACK = """
            update deliveries set state = 'held', lease_owner = null
            where callback_id = :callbackId and state = 'pending' and kind = 'event'""";

    /**
     * A changed rate limit: the callback's deliveries waiting, unleased, for their first attempt fall due
     * now and are paced anew (DeliveryPace); retries keep their schedule.
     */
    static final String REPACE = """
            update deliveries set next_attempt_at = :now
            where callback_id = :callbackId and state = 'pending' and attempts = 0 and lease_owner is null and next_attempt_at > :now
              and next_attempt_at <>\s""" + DeliveryOrder.PARKED_SQL;   // parked behind an earlier one of an ordered callback: not paced yet

    /** The new code verified: everything held is due at once; attempts so far count on (the retry schedule goes on). */
    static final String RELEASE_HELD_OF_CALLBACK = """
            update deliveries set state = 'pending', next_attempt_at = :now, lease_owner = null
            where callback_id = :callbackId and state = 'held'""";

    /**
     * A held row waits exactly as long as its callback re-keys. A publish that read its callback as
     * re-keying just before the verification committed inserts a held row that the verification's
     * release did not see: due now, then, like the others. (The other way round, a pending row of a
     * callback that started re-keying, is held again by the engine when claimed: {@link #HOLD_LEASED}.)
     */
    static final String RELEASE_HELD_OF_SENDING = """
            update deliveries set state = 'pending', next_attempt_at = :now, lease_owner = null
            where state = 'held' and exists (select 1 from callbacks c where c.id = deliveries.callback_id and\s""" + StateColumns.VERIFIED + ")";

    /** The same race with a disable or a lapse: a held row of a callback that receives no events any more is dropped. */
    static final String DROP_HELD_OF_NOT_RECEIVING = """
            update deliveries set state = 'dropped', drop_reason = :reason, lease_owner = null, finished_at = :now
            where state = 'held' and exists (select 1 from callbacks c where c.id = deliveries.callback_id
                                             and not (""" + StateColumns.RECEIVES_EVENTS + "))";

    /** A row claimed while its callback re-keys (redelivered, or raced a resend): held again, not sent. */
    static final String HOLD_LEASED = """
            update deliveries set state = 'held', lease_owner = null
            where id = :id and coalesce(lease_owner, '') = :token""";

    /** Recover: a callback's dropped event deliveries queued in [since, until), oldest first. */
    static final String RECOVERABLE = """
            select id from deliveries
            where callback_id = :callbackId and state = 'dropped' and kind = 'event'
              and created_at >= :since and created_at < :until
            order by id""";

    /** Back to the queue from the first attempt, due at :next; same row, so the same message id. */
    private static final String BACK_TO_QUEUE = """
            update deliveries set state = 'pending', attempts = 0, next_attempt_at = :next, lease_owner = null,
                   drop_reason = null, finished_at = null
            where id = :id and\s""";

    /** Recover: only if still dropped. */
    static final String REQUEUE = BACK_TO_QUEUE + "state = 'dropped'";

    /** Redeliver: a delivered or dropped delivery (not one still pending or held). */
    static final String REDELIVER = BACK_TO_QUEUE + "state in ('delivered', 'dropped')";

    /** A test event's deliveries, just queued by the same transaction: their options (event id, then the options'). */
    static final String INSERT_TEST_OPTIONS = """
            insert into test_deliveries (delivery_id, signature, copies, delay_seconds, send_order, sequence_id, sequence_position, sequence_size)
            select id, ?, ?, ?, ?, ?, ?, ? from deliveries where event_id = ? and kind = 'event'""";

    /**
     * The next delivery of an ordered test sequence to the same callback, once the one before it has
     * had an attempt answered: due now, unless it was already taken or sent.
     */
    static final String RELEASE_NEXT_IN_SEQUENCE = """
            update deliveries set next_attempt_at = :now
            where id in (select delivery_id from test_deliveries where sequence_id = :sequence and sequence_position = :next)
              and callback_id = :callbackId and state = 'pending' and attempts = 0 and lease_owner is null""";

    static final String QUEUE_DEPTH = "select count(*) from deliveries where state = 'pending'";

    /**
     * Leases up to {@code limit} due rows (none of the callbacks in {@code busy}) to {@code token}
     * until {@code leaseUntil}, and reads back what it took: one statement on PostgreSQL; on H2 the
     * candidates, then a conditional update each.
     */
    static List<ClaimedDelivery> claim(Handle h, Database.Dialect dialect, String token, Instant leaseUntil, Instant now, int limit,
                                       Collection<Long> busy) {
        List<Object> notIn = new ArrayList<>(busy.size() + 1);
        notIn.add(-1L);   // "not in ()" is not SQL
        notIn.addAll(busy);
        List<Long> candidates = new ArrayList<>();
        try {
            if (dialect == Database.Dialect.POSTGRESQL) {
                candidates.addAll(h.createQuery(CLAIM_POSTGRES).defineList("busy", notIn)
                        .bind("token", token).bind("leaseUntil", leaseUntil).bind("now", now).bind("limit", limit).mapTo(Long.class).list());
            } else {
                // Ascending ids: two processes claiming at once then lock rows in the same order, which
                // makes them wait for each other instead of deadlocking.
                candidates.addAll(h.createQuery(CANDIDATES).defineList("busy", notIn).defineList("ordered", DeliveryOrder.orderedCallbacks(h))
                        .bind("now", now).bind("limit", limit).mapTo(Long.class).stream().sorted().toList());
                if (!candidates.isEmpty()) {
                    var batch = h.prepareBatch(CLAIM_ONE);
                    for (Long id : candidates) batch.bind("token", token).bind("leaseUntil", leaseUntil).bind("now", now).bind("id", id).add();
                    batch.execute();
                }
            }
        } catch (RuntimeException e) {
            // Only a conflict with another process claiming at the same moment (H2 can report that
            // as a deadlock or a lock timeout) is expected: the rows this token already took are
            // committed, so they are read back and sent now rather than left leased, unsent, until
            // the lease expires. Anything else (the database gone, a fault) goes to the caller.
            if (!Deadlocks.isConflict(e)) throw e;
            LOG.debug("delivery claim cut short by a concurrent claim: {}", e.toString());
        }
        if (candidates.isEmpty()) return List.of();
        return h.createQuery(LOAD_CLAIMED).bind("token", token).bindList("ids", candidates).map(new ClaimedMapper()).list();
    }

    /** Gives these rows, leased to {@code token}, back to the queue, due {@code now}. */
    static void release(Handle h, Collection<Long> ids, String token, Instant now) {
        var batch = h.prepareBatch(RELEASE);
        for (Long id : ids) batch.bind("id", id).bind("token", token).bind("dueAt", now).add();
        batch.execute();
    }

    /** Gives these rows, leased to {@code token}, back to the queue, each due at its time (Pace: their turn). */
    static void defer(Handle h, Map<Long, Instant> dueAt, String token) {
        var batch = h.prepareBatch(RELEASE);
        dueAt.forEach((id, at) -> batch.bind("id", id).bind("token", token).bind("dueAt", at).add());
        batch.execute();
    }

    // Pace (V30's callback_pace, DeliveryPace): a callback's next free send slot, in microseconds since the epoch.
    static final String PACE_SLOT = "select next_slot from callback_pace where callback_id = ?";

    /** The callback's first paced delivery makes its row (callback id, slot, callback id); another node may just have. */
    static final String PACE_ADD = """
            insert into callback_pace (callback_id, next_slot)
            select cast(? as bigint), cast(? as bigint) where not exists (select 1 from callback_pace where callback_id = ?)""";

    /** Takes slots: only if nobody took any since the slot was read (new slot, callback id, slot read). */
    static final String PACE_TAKE = "update callback_pace set next_slot = ? where callback_id = ? and next_slot = ?";

    /** Holds these rows, leased to {@code token}: their callback re-keys. */
    static void hold(Handle h, Collection<Long> ids, String token) {
        var batch = h.prepareBatch(HOLD_LEASED);
        for (Long id : ids) batch.bind("id", id).bind("token", token).add();
        batch.execute();
    }

    /** Queues a delivery of the event for each subscriber, unleased; returns how many. */
    static int fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now) {
        return fanOut(h, eventId, accountId, name, noun, now, now);
    }

    /** As {@link #fanOut(Handle, long, String, String, String, Instant)}, first due at {@code due}. */
    static int fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now, Instant due) {
        return PlainJdbc.update(h, FAN_OUT, s -> {
            s.setLong(1, eventId);
            TimeMapping.bind(s, 2, due);   // a callback not ordered: first due then
            TimeMapping.bind(s, 3, now);   // an ordered one's: waiting unless what is before it is in flight...
            TimeMapping.bind(s, 4, due);   // ...else due then
            TimeMapping.bind(s, 5, now);
            bindSubscribers(s, 6, accountId, name, noun);
        });
    }

    /** What a leased fan-out queued: how many deliveries (held and ordered callbacks' included), and those leased for sending now. */
    record Published(int queued, List<ClaimedDelivery> leased) {}

    /**
     * Queues a delivery of the event for each subscriber, leased with this token until then (unleased
     * for a re-keying callback, held, and for an ordered one, DeliveryOrder), and reads the leased ones
     * back for sending: one statement on PostgreSQL, an insert and a read through the event's index on H2.
     */
    static Published fanOutLeased(Handle h, Database.Dialect dialect, long eventId, String accountId, String name, String noun,
                                  Instant now, String token, Instant leaseUntil) {
        PlainJdbc.Binder insert = s -> {
            s.setLong(1, eventId);
            TimeMapping.bind(s, 2, leaseUntil);
            TimeMapping.bind(s, 3, now);
            TimeMapping.bind(s, 4, now);
            s.setString(5, token);
            TimeMapping.bind(s, 6, now);
            bindSubscribers(s, 7, accountId, name, noun);
        };
        if (dialect == Database.Dialect.POSTGRESQL) {
            // Every inserted row comes back; those of a callback that does not send now were inserted
            // held (PENDING_OR_HELD), those of an ordered one unleased.
            List<ClaimedDelivery> all = PlainJdbc.query(h, FAN_OUT_LEASED_RETURNING, insert, ClaimedMapper::read);
            return new Published(all.size(), all.stream().filter(d -> d.callbackState().sends() && !d.ordered()).toList());
        }
        int queued = PlainJdbc.update(h, FAN_OUT_LEASED, insert);
        if (queued == 0) return new Published(0, List.of());
        return new Published(queued, PlainJdbc.query(h, LOAD_PUBLISHED, s -> {
            s.setLong(1, eventId);
            s.setString(2, token);
        }, ClaimedMapper::read));
    }

    /** Stores a test event's options beside each of its just-queued deliveries. */
    static void addTestOptions(Handle h, long eventId, TestDelivery t, TestDelivery.Place place) {
        PlainJdbc.update(h, INSERT_TEST_OPTIONS, s -> {
            s.setString(1, t.signature().value());
            s.setInt(2, t.copies());
            s.setLong(3, t.delay().toSeconds());
            s.setString(4, t.order().value());
            s.setString(5, place == null ? null : place.sequence());
            if (place == null) {
                s.setNull(6, java.sql.Types.INTEGER);
                s.setNull(7, java.sql.Types.INTEGER);
            } else {
                s.setInt(6, place.position());
                s.setInt(7, place.size());
            }
            s.setLong(8, eventId);
        });
    }

    private static void bindSubscribers(PreparedStatement s, int first, String accountId, String name, String noun) throws SQLException {
        s.setString(first, accountId);
        s.setString(first + 1, noun);
        s.setString(first + 2, name);
        s.setString(first + 3, noun);
    }

    static final class ClaimedMapper implements RowMapper<ClaimedDelivery> {
        @Override
        public ClaimedDelivery map(ResultSet rs, StatementContext ctx) throws SQLException {
            return read(rs);
        }

        static ClaimedDelivery read(ResultSet rs) throws SQLException {
            long eventId = rs.getLong("event_id");
            Long event = rs.wasNull() ? null : eventId;
            return new ClaimedDelivery(rs.getLong("id"), rs.getLong("callback_id"), DeliveryKind.stored(rs.getString("kind")), rs.getInt("attempts"),
                    event, rs.getString("name"), rs.getLong("object_id"), rs.getString("event_account_id"), rs.getLong("event_user_id"),
                    rs.getString("uri"), rs.getString("verifier_sealed"), rs.getString("verifier_key"), rs.getString("callback_account_id"), rs.getLong("callback_user_id"),
                    StateColumns.of(rs.getBoolean("verified"), rs.getBoolean("disabled"), TimeMapping.read(rs, "rekeying_since") != null),
                    TimeMapping.read(rs, "failing_since"), rateLimit(rs), testSend(rs), rs.getBoolean("ordered"),
                    TraceHeaders.stored(rs.getString("trace_parent"), rs.getString("trace_state")));
        }

        private static Integer rateLimit(ResultSet rs) throws SQLException {
            int perSecond = rs.getInt("rate_limit");
            return rs.wasNull() ? null : perSecond;
        }

        private static ClaimedDelivery.TestSend testSend(ResultSet rs) throws SQLException {
            String signature = rs.getString("test_signature");
            if (signature == null) return null;
            int position = rs.getInt("test_position");
            return new ClaimedDelivery.TestSend(TestDelivery.stored(signature, rs.getInt("test_copies"), rs.getLong("test_delay"),
                    rs.getString("test_order")), rs.getString("test_sequence"), position);
        }
    }

}
