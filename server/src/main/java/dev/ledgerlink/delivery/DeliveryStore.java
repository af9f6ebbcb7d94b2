package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.EventReceivers;
import dev.ledgerlink.callbacks.StateColumns;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.Deadlocks;
import dev.ledgerlink.store.H2IndexChoice;
import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.tracing.TraceHeaders;
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
 * redeliver. Ordered delivery's part of the claim and of the fan-out is {@link DeliveryOrder}'s; who
 * receives an event is callbacks/EventReceivers'. The callbacks table is read here (the receivers,
 * what sending needs) but written only by the callbacks capability. Parameters are named, as JDBI
 * names them, also in the statements that run as plain JDBC.
 */
final class DeliveryStore {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryStore.class);

    private DeliveryStore() {}

    static final String INSERT_VERIFICATION = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            values (:callbackId, null, 'verification', 'pending', 0, :now, :now)""";

    // The statements of a publish and of the result recorder run as plain JDBC (store/PlainJdbc, written
    // with named parameters: store/Named): they are the hot path of every delivery.

    /** The callbacks that receive the event (callbacks/EventReceivers: :accountId, :name, :noun). */
    private static final String RECEIVERS = "\nfrom callbacks c\nwhere " + EventReceivers.OF_EVENT;

    /**
     * A receiver's new delivery is pending when its callback sends now, else held (re-keying: it
     * receives events but awaits verification of its new code). Held rows are never claimed.
     */
    private static final String PENDING_OR_HELD = "case when " + EventReceivers.SENDS_NOW + " then 'pending' else 'held' end";

    /**
     * Fan-out of event :eventId: a delivery per receiver, queued unleased, first due at :due. An
     * ordered callback's waits when one of it is waiting already (DeliveryOrder).
     */
    static final Named FAN_OUT = Named.sql("""
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
            select c.id, :eventId, 'event',\s""" + PENDING_OR_HELD + ", 0, " + DeliveryOrder.firstAttempt(":due", ":due") + ", :now" + RECEIVERS);

    /**
     * The same fan-out, leased in the insert to this process's engine (:token until :leaseUntil), which
     * sends the rows as soon as the publisher has committed (no claim pass): next_attempt_at is the
     * lease's end, so another process takes them over only if this one dies before recording an
     * outcome. A held row gets no lease: it is not the engine's to send; nor does an ordered callback's,
     * queued due now: the claim's rule decides when it goes (DeliveryOrder).
     */
    static final String FAN_OUT_LEASED_SQL = """
            insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, lease_owner, created_at)
            select c.id, :eventId, 'event',\s""" + PENDING_OR_HELD + ", 0, " + DeliveryOrder.firstAttempt(":leaseUntil", ":now")
            + ", case when c.ordered = false and " + EventReceivers.SENDS_NOW + " then :token end, :now" + RECEIVERS;

    static final Named FAN_OUT_LEASED = Named.sql(FAN_OUT_LEASED_SQL);

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
                   c.verified, c.disabled, c.rekeying_since, c.failing_since, c.rate_limit, c.ordered, e.trace_parent, e.trace_state""";

    private static final String LOAD = SENDABLE + """

            from deliveries d
            join callbacks c on c.id = d.callback_id
            left join events e on e.id = d.event_id
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

    /** H2: the rows a publish inserted leased, found through the event's index. */
    static final Named LOAD_PUBLISHED = Named.sql(LOAD + "d.event_id = :eventId and d.lease_owner = :token");

    /**
     * PostgreSQL: the leased fan-out and the read-back in one statement, one round trip for the
     * publish's deliveries ({@link #FAN_OUT_LEASED}'s parameters). The event was inserted by the same
     * transaction; each callback is read again by its key.
     */
    static final Named FAN_OUT_LEASED_RETURNING = Named.sql("with d as (" + FAN_OUT_LEASED_SQL + """

            returning id, callback_id, kind, state, attempts, event_id)
            """ + SENDABLE + """

            from d
            join callbacks c on c.id = d.callback_id
            join events e on e.id = d.event_id""");

    // State changes below apply only while the worker still holds the lease. Each statement finds its
    // row by primary key; the coalesce kept H2 off the lease owner's index, which V26 dropped.
    /** Back to the queue unleased, due at :dueAt: now (no room for it here), or its turn (Pace); no attempt is counted. */
    static final String RELEASE = """
            update deliveries set lease_owner = null, next_attempt_at = :dueAt
            where id = :id and coalesce(lease_owner, '') = :token""";

    /** Skips the row when the delivery is gone meanwhile (its callback was deleted). */
    static final Named INSERT_ATTEMPT = Named.sql("""
            insert into delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error,
                                           request_headers, request_body, response_headers, response_body)
            select id, :attempt, :attemptedAt, :statusCode, :durationMs, :error, :requestHeaders, :requestBody, :responseHeaders, :responseBody
            from deliveries where id = :deliveryId""");

    /**
     * A callback's latest attempt (callback_last_attempts, the console's list reads it), one row per
     * callback and batch. The row exists from the callback's first verification request on
     * ({@link #ADD_LAST_ATTEMPT_ROW}), so this only updates it: concurrent writers (two nodes) queue
     * on the row instead of racing to insert it, and an older attempt never replaces a newer one.
     * A callback deleted meanwhile has no row left to update.
     */
    static final Named RECORD_LAST_ATTEMPT = Named.sql("""
            update callback_last_attempts set delivery_id = :deliveryId, attempt = :attempt, attempted_at = :attemptedAt,
                   status_code = :statusCode, duration_ms = :durationMs, error = :error
            where callback_id = :callbackId and (attempted_at is null or attempted_at <= :attemptedAt)""");

    /** The callback's latest-attempt row, still without an attempt; in the transaction of its verification request. */
    static final String ADD_LAST_ATTEMPT_ROW = """
            insert into callback_last_attempts (callback_id)
            select cast(:callbackId as bigint) where not exists (select 1 from callback_last_attempts where callback_id = :callbackId)""";

    static final Named MARK_DELIVERED = Named.sql("""
            update deliveries set state = 'delivered', attempts = :attempts, lease_owner = null, finished_at = :now
            where id = :id and coalesce(lease_owner, '') = :token""");

    static final Named SCHEDULE_RETRY = Named.sql("""
            update deliveries set attempts = :attempts, next_attempt_at = :next, lease_owner = null
            where id = :id and coalesce(lease_owner, '') = :token""");

    static final Named MARK_DROPPED = Named.sql("""
            update deliveries set state = 'dropped', attempts = :attempts, drop_reason = :reason, lease_owner = null, finished_at = :now
            where id = :id and coalesce(lease_owner, '') = :token""");

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
            where state = 'held' and exists (select 1 from callbacks c where c.id = deliveries.callback_id and\s""" + EventReceivers.SENDS_NOW + ")";

    /** The same race with a disable or a lapse: a held row of a callback that receives no events any more is dropped. */
    static final String DROP_HELD_OF_NOT_RECEIVING = """
            update deliveries set state = 'dropped', drop_reason = :reason, lease_owner = null, finished_at = :now
            where state = 'held' and exists (select 1 from callbacks c where c.id = deliveries.callback_id
                                             and not (""" + EventReceivers.RECEIVING + "))";

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
    static final Named PACE_SLOT = Named.sql("select next_slot from callback_pace where callback_id = :callbackId");

    /** The callback's first paced delivery makes its row; another node may just have. */
    static final Named PACE_ADD = Named.sql("""
            insert into callback_pace (callback_id, next_slot)
            select cast(:callbackId as bigint), cast(:slot as bigint)
            where not exists (select 1 from callback_pace where callback_id = :callbackId)""");

    /** Takes slots: only if nobody took any since :read was read. */
    static final Named PACE_TAKE = Named.sql("update callback_pace set next_slot = :slot where callback_id = :callbackId and next_slot = :read");

    /** Holds these rows, leased to {@code token}: their callback re-keys. */
    static void hold(Handle h, Collection<Long> ids, String token) {
        var batch = h.prepareBatch(HOLD_LEASED);
        for (Long id : ids) batch.bind("id", id).bind("token", token).add();
        batch.execute();
    }

    /** Queues a delivery of the event for each receiver, unleased; returns how many. */
    static int fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now) {
        return fanOut(h, eventId, accountId, name, noun, now, now);
    }

    /** As {@link #fanOut(Handle, long, String, String, String, Instant)}, first due at {@code due}. */
    static int fanOut(Handle h, long eventId, String accountId, String name, String noun, Instant now, Instant due) {
        return PlainJdbc.update(h, FAN_OUT, p -> receivers(p, accountId, name, noun).set("eventId", eventId).set("due", due).set("now", now));
    }

    /** What a leased fan-out queued: how many deliveries (held and ordered callbacks' included), and those leased for sending now. */
    record Published(int queued, List<ClaimedDelivery> leased) {}

    /**
     * Queues a delivery of the event for each receiver, leased with this token until then (unleased
     * for a re-keying callback, held, and for an ordered one, DeliveryOrder), and reads the leased ones
     * back for sending: one statement on PostgreSQL, an insert and a read through the event's index on H2.
     */
    static Published fanOutLeased(Handle h, Database.Dialect dialect, long eventId, String accountId, String name, String noun,
                                  Instant now, String token, Instant leaseUntil) {
        PlainJdbc.Binder insert = p -> receivers(p, accountId, name, noun)
                .set("eventId", eventId).set("leaseUntil", leaseUntil).set("now", now).set("token", token);
        if (dialect == Database.Dialect.POSTGRESQL) {
            // Every inserted row comes back; those of a callback that does not send now were inserted
            // held (PENDING_OR_HELD), those of an ordered one unleased.
            List<ClaimedDelivery> all = PlainJdbc.query(h, FAN_OUT_LEASED_RETURNING, insert, ClaimedMapper::read);
            return new Published(all.size(), all.stream().filter(d -> EventReceivers.sendsNow(d.callbackState()) && !d.ordered()).toList());
        }
        int queued = PlainJdbc.update(h, FAN_OUT_LEASED, insert);
        if (queued == 0) return new Published(0, List.of());
        return new Published(queued, PlainJdbc.query(h, LOAD_PUBLISHED, p -> p.set("eventId", eventId).set("token", token), ClaimedMapper::read));
    }

    /** The event's account, name and noun, as EventReceivers.OF_EVENT names them. */
    private static Named.Params receivers(Named.Params p, String accountId, String name, String noun) throws SQLException {
        return p.set("accountId", accountId).set("name", name).set("noun", noun);
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
                    TimeMapping.read(rs, "failing_since"), rateLimit(rs), DeliveryHooks.PLAIN, rs.getBoolean("ordered"),
                    TraceHeaders.stored(rs.getString("trace_parent"), rs.getString("trace_state")));
        }

        private static Integer rateLimit(ResultSet rs) throws SQLException {
            int perSecond = rs.getInt("rate_limit");
            return rs.wasNull() ? null : perSecond;
        }
    }

}
