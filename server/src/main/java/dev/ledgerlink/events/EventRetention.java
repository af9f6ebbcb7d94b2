package dev.ledgerlink.events;

/**
 * Which events the retention sweeper may remove (retention.events): published before the cutoff and
 * no longer referenced by any delivery, so nothing pending is ever touched and the delivery history
 * kept by retention.deliveries still names its event. Its Idempotency-Key is forgotten with it.
 */
public final class EventRetention {
    private EventRetention() {}

    /** On events. */
    public static final String UNREFERENCED = """
            created_at < :cutoff and not exists (select 1 from deliveries d where d.event_id = events.id)""";
}
