package dev.ledgerlink.events;

/**
 * Which events the retention sweeper may remove (retention.events): published before the cutoff and
 * no longer referenced by any delivery, so nothing pending is ever touched and the delivery history
 * kept by retention.deliveries still names its event. Its Idempotency-Key is forgotten with it.
 */
public final class EventRetention {
    private EventRetention() {}

    /**
     * On events. One probe of deliveries_event per event (a value, not NOT EXISTS, which a planner may
     * run as an anti-join over every delivery for each page of the sweep).
     */
    public static final String UNREFERENCED = """
            created_at < :cutoff and (select 1 from deliveries d where d.event_id = events.id limit 1) is null""";
}
