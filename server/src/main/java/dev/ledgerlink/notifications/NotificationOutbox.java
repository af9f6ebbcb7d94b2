package dev.ledgerlink.notifications;

/** The statements of operator_notifications (V14__operator_notifications.sql). */
final class NotificationOutbox {
    private NotificationOutbox() {}

    static final String INSERT = """
            insert into operator_notifications (type, data, aggregate_key, occurrences, state, attempts, next_attempt_at, created_at)
            values (:type, :data, :key, :n, 'pending', 0, :due, :now)""";

    /** The hour's aggregate, unless it exists already (then {@link #ADD_TO_AGGREGATE} applies, or a notice of its own). */
    static final String INSERT_AGGREGATE = """
            insert into operator_notifications (type, data, aggregate_key, occurrences, state, attempts, next_attempt_at, created_at)
            values (:type, :data, :key, :n, 'pending', 0, :due, :now)
            on conflict do nothing""";

    /** Adds to an hour's aggregate while nobody is sending it. */
    static final String ADD_TO_AGGREGATE = """
            update operator_notifications set occurrences = occurrences + :n
            where aggregate_key = :key and state = 'pending' and attempts = 0 and lease_owner is null""";

    /** Ordered by both columns of operator_notifications_due, so that H2 reads them in index order (see DeliveryStore.CANDIDATES). */
    static final String DUE = """
            select id from operator_notifications where state = 'pending' and next_attempt_at <= :now
            order by state, next_attempt_at limit :limit""";

    /** Takes one due notice for this sender until the lease ends (a crashed sender's notice falls due again). */
    static final String CLAIM = """
            update operator_notifications set lease_owner = :token, next_attempt_at = :leaseUntil
            where id = :id and state = 'pending' and next_attempt_at <= :now""";

    static final String LOAD = "select id, type, data, occurrences, attempts, created_at from operator_notifications where id = :id and lease_owner = :token";

    static final String SENT = """
            update operator_notifications set state = 'sent', attempts = attempts + 1, lease_owner = null, last_error = null, finished_at = :now
            where id = :id and lease_owner = :token""";

    static final String RETRY = """
            update operator_notifications set attempts = attempts + 1, lease_owner = null, last_error = :error, next_attempt_at = :next
            where id = :id and lease_owner = :token""";

    static final String GIVE_UP = """
            update operator_notifications set state = 'failed', attempts = attempts + 1, lease_owner = null, last_error = :error, finished_at = :now
            where id = :id and lease_owner = :token""";
}
