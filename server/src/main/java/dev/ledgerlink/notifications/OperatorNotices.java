package dev.ledgerlink.notifications;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Where the events an operator must hear about are written down: each method takes the handle of
 * the transaction that made the event happen, so the notice commits (or rolls back) with it and is
 * never lost; {@link NotificationSender} sends it afterwards. With notifications.url empty, nothing
 * is written.
 *
 * <p>Dropped deliveries are aggregated per callback per hour: the first drop of an hour writes a
 * notice due at the end of that hour, later ones add to its count.
 */
public final class OperatorNotices {
    public static final String CALLBACK_DISABLED = "callback.disabled";
    public static final String DELIVERIES_DROPPED = "deliveries.dropped";
    public static final String GRANT_REVOKED = "grant.revoked";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration AGGREGATION_WINDOW = Duration.ofHours(1);

    private final boolean enabled;

    private OperatorNotices(boolean enabled) {
        this.enabled = enabled;
    }

    public static OperatorNotices on() {
        return new OperatorNotices(true);
    }

    public static OperatorNotices off() {
        return new OperatorNotices(false);
    }

    public boolean enabled() {
        return enabled;
    }

    /** A callback was disabled (its failure window ran out, or its endpoint answered 410 Gone). */
    public void callbackDisabled(Handle h, long callbackId, String accountId, String uri, String reason, Instant now) {
        if (!enabled) return;
        insert(h, CALLBACK_DISABLED, data("callback_id", callbackId, "account_id", accountId, "uri", uri, "reason", reason),
                null, 1, now);
    }

    /** {@code count} deliveries to a callback were given up. */
    public void deliveriesDropped(Handle h, long callbackId, String accountId, String uri, int count, Instant now) {
        if (!enabled || count <= 0) return;
        Instant hour = now.truncatedTo(ChronoUnit.HOURS);
        String key = DELIVERIES_DROPPED + ":" + callbackId + ":" + hour.getEpochSecond();
        int added = h.createUpdate(NotificationOutbox.ADD_TO_AGGREGATE).bind("key", key).bind("n", count).execute();
        if (added > 0) return;
        String data = data("callback_id", callbackId, "account_id", accountId, "uri", uri,
                "window_start", hour.toString(), "window_end", hour.plus(AGGREGATION_WINDOW).toString());
        int inserted = h.createUpdate(NotificationOutbox.INSERT_AGGREGATE).bind("type", DELIVERIES_DROPPED).bind("data", data)
                .bind("key", key).bind("n", count).bind("due", hour.plus(AGGREGATION_WINDOW)).bind("now", now).execute();
        // The hour's notice is already being sent (or another node inserted it first and then began
        // sending): these drops get a notice of their own rather than being lost.
        if (inserted == 0) insert(h, DELIVERIES_DROPPED, data, null, count, now);
    }

    /** A refresh token was replayed after the replay window: the whole grant was revoked. */
    public void grantRevoked(Handle h, long grantId, long userId, long applicationId, String reason, Instant now) {
        if (!enabled) return;
        insert(h, GRANT_REVOKED, data("grant_id", grantId, "user_id", userId, "application_id", applicationId, "reason", reason),
                null, 1, now);
    }

    private static void insert(Handle h, String type, String data, String key, int occurrences, Instant due) {
        h.createUpdate(NotificationOutbox.INSERT).bind("type", type).bind("data", data).bind("key", key)
                .bind("n", occurrences).bind("due", due).bind("now", due).execute();
    }

    private static String data(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) m.put((String) keyValues[i], keyValues[i + 1]);
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
