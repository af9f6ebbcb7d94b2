package dev.ledgerlink.delivery;

/**
 * Which rows of the delivery tables the retention sweeper may remove (retention.deliveries): only
 * finished deliveries (delivered or dropped) and their attempts, never a pending one. Each rule is
 * a WHERE clause over its table with {@code :cutoff}; the sweeper re-checks it in every DELETE, so a
 * delivery queued again meanwhile (redeliver makes it pending) is left alone.
 */
public final class DeliveryRetention {
    private DeliveryRetention() {}

    /**
     * On delivery_attempts: the attempts of deliveries that finished before the cutoff. A look-up of
     * each attempt's delivery by its key, written as a value rather than EXISTS: not "in (every
     * finished delivery)", which H2 gathered in full for each page of the sweep, nor a semi-join,
     * which PostgreSQL ran as a hash join over every delivery (a full scan per page at size,
     * docs/sizing.md "Retention at size").
     */
    public static final String ATTEMPTS_OF_FINISHED = """
            (select d.finished_at from deliveries d where d.id = delivery_attempts.delivery_id
             and d.state in ('delivered', 'dropped')) < :cutoff""";

    /** On deliveries: delivered or dropped before the cutoff. */
    public static final String FINISHED = "state in ('delivered', 'dropped') and finished_at < :cutoff";
}
