package dev.ledgerlink.sandbox;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Every statement of test_deliveries (V37): a test delivery's options, kept beside its delivery so
 * that a retry or a restart sends it the same way. Development mode's alone: the delivery package
 * never reads the table, it asks {@link TestDeliveryHooks} through its hook. The deliveries of a test
 * event are the queue's rows the sandbox found them by (their event), and the one change it makes to
 * the queue is to bring forward, once, the next delivery of an ordered call it held back itself.
 */
final class TestDeliveryStore {
    private TestDeliveryStore() {}

    /** A test event's deliveries, just queued by the same transaction: their options, and their place in an ordered call. */
    static final String ADD = """
            insert into test_deliveries (delivery_id, signature, copies, delay_seconds, send_order, sequence_id, sequence_position, sequence_size)
            select id, :signature, :copies, :delaySeconds, :sendOrder, :sequence, :position, :size
            from deliveries where event_id = :eventId and kind = 'event'""";

    /** The options of those of these deliveries that are test deliveries, by key. */
    static final String OPTIONS = """
            select delivery_id, signature, copies, delay_seconds, send_order, sequence_id, sequence_position
            from test_deliveries where delivery_id in (<ids>)""";

    /**
     * The next delivery of an ordered call to the same callback, once the one before it has had an
     * attempt answered: due now, unless it was already taken or sent (it is then no longer waiting
     * for its first attempt, unleased).
     */
    static final String RELEASE_NEXT = """
            update deliveries set next_attempt_at = :now
            where id in (select delivery_id from test_deliveries where sequence_id = :sequence and sequence_position = :next)
              and callback_id = :callbackId and state = 'pending' and attempts = 0 and lease_owner is null""";

    /** A stored test delivery: its options, and its call's sequence and place in it (null sequence: no order). */
    record Stored(TestDelivery options, String sequence, int position) {}

    static void add(Handle h, long eventId, TestDelivery t, TestDelivery.Place place) {
        h.createUpdate(ADD).bind("eventId", eventId)
                .bind("signature", t.signature().value()).bind("copies", t.copies()).bind("delaySeconds", t.delay().toSeconds())
                .bind("sendOrder", t.order().value())
                .bind("sequence", place == null ? null : place.sequence())
                .bind("position", place == null ? null : place.position())
                .bind("size", place == null ? null : place.size())
                .execute();
    }

    static Map<Long, Stored> options(Handle h, List<Long> deliveryIds) {
        Map<Long, Stored> out = new HashMap<>();
        if (deliveryIds.isEmpty()) return out;
        h.createQuery(OPTIONS).bindList("ids", deliveryIds)
                .map((rs, ctx) -> Map.entry(rs.getLong("delivery_id"), new Stored(TestDelivery.stored(rs.getString("signature"),
                        rs.getInt("copies"), rs.getLong("delay_seconds"), rs.getString("send_order")), rs.getString("sequence_id"),
                        rs.getInt("sequence_position"))))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
