package dev.ledgerlink.notifications;

/** Which operator notifications the retention sweeper may remove: sent or given up before the cutoff (never a pending one). */
public final class NotificationRetention {
    private NotificationRetention() {}

    /** On operator_notifications. */
    public static final String FINISHED = "state in ('sent', 'failed') and finished_at < :cutoff";
}
