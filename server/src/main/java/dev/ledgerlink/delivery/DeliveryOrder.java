package dev.ledgerlink.delivery;

import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Ordered delivery (decisions.md, "Notifications"; docs/delivery.md, "Order"): for a callback an
 * operator set to ordered, one event delivery at a time, in id order (the order the events were
 * accepted), a failing one holding back those after it until it is delivered or dropped.
 * Verification requests are not part of it. Everything here is decided by the database, so it holds
 * across processes sharing it and across a crash. Two parts:
 * <ul>
 *   <li>The rule, one condition of the claim ({@link #CLAIMABLE_POSTGRES}, {@link #CLAIMABLE_H2}): an event delivery of an ordered
 *   callback is claimed only when no earlier one of that callback is pending. The one in flight stays
 *   pending until its outcome is recorded, and a crash leaves it pending, due again when its lease
 *   ends; so nothing after it can overtake it. A callback not ordered pays, per claim, one read of the
 *   ordered callbacks' ids (an index with usually nothing in it), and per row one probe of a hash of them.</li>
 *   <li>Parking, for the cost: the deliveries waiting behind the one being sent are queued not due
 *   ({@code next_attempt_at} = {@link #PARKED}), so the claim's range of deliveries_due never holds
 *   them and a backlog behind a failing delivery costs no claim anything. When the one being sent
 *   ends (the recorder's transaction), the next is made due. A race (a publish parking its delivery
 *   while the one before it ends) can leave one parked with nothing before it; the dispatcher's sweep
 *   makes it due within seconds ({@link #sweep}).</li>
 * </ul>
 * Turning ordered on, and putting an ordered callback's deliveries back in the queue (redeliver,
 * recover), may find attempts in flight that were claimed without the rule: the next delivery is then
 * made due only after a lease's length, when each of those has ended or lost its lease
 * ({@link #reorder}).
 */
public final class DeliveryOrder {
    /** next_attempt_at of a delivery waiting behind an earlier one of its ordered callback. */
    public static final Instant PARKED = Instant.parse("9999-12-31T00:00:00Z");
    static final String PARKED_SQL = "timestamp with time zone '9999-12-31 00:00:00+00'";

    /**
     * The claim's condition, on a row of deliveries: a verification request, or a delivery of a
     * callback not ordered, or one with no earlier pending event delivery of its callback. The
     * ordered callbacks are {@code %s}: per database, as each checks a row against them cheapest.
     */
    private static final String CLAIMABLE = """
            (kind = 'verification' or callback_id not in (%s)
             or not exists (select 1 from deliveries earlier
                            where earlier.state = 'pending' and earlier.callback_id = deliveries.callback_id
                              and earlier.id < deliveries.id and earlier.kind = 'event'))""";

    /**
     * PostgreSQL: a subquery, which it reads once per claim (through callbacks_ordered) into a hash:
     * a claim's read of 256 due rows among 50,000 took the same with it as without.
     */
    static final String CLAIMABLE_POSTGRES = CLAIMABLE.formatted("select id from callbacks where ordered = true");

    /**
     * H2: the list {@code <ordered>} the claim reads just before ({@link #orderedCallbacks}), each row's
     * check a look-up in a set of constants: as a subquery H2 reads the ordered callbacks again for
     * every candidate row.
     */
    static final String CLAIMABLE_H2 = CLAIMABLE.formatted("<ordered>");

    /**
     * The first next_attempt_at of a fan-out's delivery to callback {@code c}: {@code unordered} for a
     * callback not ordered; for an ordered one, parked when a delivery of it is waiting (pending and
     * not in flight at {@code :now}), else {@code ordered}. Each argument is a named parameter.
     */
    static String firstAttempt(String unordered, String ordered) {
        return "case when c.ordered = false then " + unordered + """

                 when exists (select 1 from deliveries w
                              where w.state = 'pending' and w.callback_id = c.id and w.kind = 'event'
                                and (w.lease_owner is null or w.next_attempt_at <= :now)) then\s""" + PARKED_SQL + """

                 else\s""" + ordered + " end";
    }

    /** Makes the callback's first pending event delivery due at :due, if it is parked. */
    static final Named PROMOTE = Named.sql("""
            update deliveries set next_attempt_at = :due
            where id = (select id from deliveries where state = 'pending' and callback_id = :callbackId and kind = 'event'
                        order by id fetch first 1 rows only)
              and next_attempt_at =\s""" + PARKED_SQL);

    /** Parks every pending event delivery of the callback that is not in flight at :now. */
    static final Named PARK_WAITING = Named.sql("""
            update deliveries set next_attempt_at =\s""" + PARKED_SQL + """
            , lease_owner = null
            where state = 'pending' and callback_id = :callbackId and kind = 'event' and (lease_owner is null or next_attempt_at <= :now)""");

    /** Ordered turned off: whatever waited is due :now. */
    static final Named UNPARK_ALL = Named.sql("""
            update deliveries set next_attempt_at = :now
            where state = 'pending' and callback_id = :callbackId and next_attempt_at =\s""" + PARKED_SQL);

    static final Named ORDERED_CALLBACKS = Named.sql("select id from callbacks where ordered = true");

    static final Named IS_ORDERED = Named.sql("select ordered from callbacks where id = :callbackId");

    private final Duration settle;

    /** {@code settle}: how long an attempt claimed without the rule may still be in flight (delivery.lease). */
    public DeliveryOrder(Duration settle) {
        this.settle = settle;
    }

    /** After the first deliveries of these callbacks ended (delivered or dropped): the next of each is due now. */
    static void promote(Handle h, Collection<Long> callbackIds, Instant now) {
        PlainJdbc.batch(h, PROMOTE, callbackIds, (p, id) -> p.set("due", now).set("callbackId", id));
    }

    /**
     * The ids of the ordered callbacks, for the H2 claim's {@code <ordered>}; -1 when there are none
     * ("not in ()" is not SQL). Read through callbacks_ordered: usually no row at all. A claim whose
     * read came just before an operator turned ordered on may still take what was due then; what
     * {@link #reorder} parks is not due, and what it leaves due is due only a lease later.
     */
    static List<Long> orderedCallbacks(Handle h) {
        List<Long> ids = new ArrayList<>(PlainJdbc.query(h, ORDERED_CALLBACKS, p -> {}, rs -> rs.getLong(1)));
        if (ids.isEmpty()) ids.add(-1L);
        return ids;
    }

    /** Every ordered callback whose first pending delivery is parked gets it made due (races, a change of the setting). */
    static void sweep(Handle h, Instant now) {
        List<Long> ordered = PlainJdbc.query(h, ORDERED_CALLBACKS, p -> {}, rs -> rs.getLong(1));
        if (!ordered.isEmpty()) promote(h, ordered, now);
    }

    /**
     * The callback was turned ordered, or its deliveries were put back in the queue while it is: what
     * is not in flight waits, and the first of it is due once whatever is in flight has ended.
     */
    void reorder(Handle h, long callbackId, Instant now) {
        PlainJdbc.update(h, PARK_WAITING, p -> p.set("callbackId", callbackId).set("now", now));
        promote(h, List.of(callbackId), now.plus(settle));
    }

    /**
     * An ordered callback's held deliveries were released (re-keying: its new code verified), all due
     * now: they line up again behind the first, which goes now. Nothing of it was in flight: holding
     * them took every lease back.
     */
    void lineUpIfOrdered(Handle h, long callbackId, Instant now) {
        if (!isOrdered(h, callbackId)) return;
        PlainJdbc.update(h, PARK_WAITING, p -> p.set("callbackId", callbackId).set("now", now));
        promote(h, List.of(callbackId), now);
    }

    /** {@link #reorder} if the callback is ordered. */
    void reorderIfOrdered(Handle h, long callbackId, Instant now) {
        if (isOrdered(h, callbackId)) reorder(h, callbackId, now);
    }

    private static boolean isOrdered(Handle h, long callbackId) {
        return PlainJdbc.queryOne(h, IS_ORDERED, p -> p.set("callbackId", callbackId), rs -> rs.getBoolean(1)).orElse(false);
    }

    /** Ordered turned off: nothing waits any more. */
    void unparkAll(Handle h, long callbackId, Instant now) {
        PlainJdbc.update(h, UNPARK_ALL, p -> p.set("now", now).set("callbackId", callbackId));
    }
}
