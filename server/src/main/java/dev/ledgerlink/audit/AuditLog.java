package dev.ledgerlink.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import net.logstash.logback.argument.StructuredArguments;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail: the security-relevant things an operator must be able to find after the fact,
 * one line each on the logger {@code dev.ledgerlink.audit} (INFO) and one count each in
 * {@code ledgerlink_audit_events_total{event}}. The line is {@code event=<name>} followed by the
 * event's fields as {@code key=value}; with log.format=json each field is a top-level JSON field
 * too (next to {@code request_id} when a request caused it).
 *
 * <p>Recorded only once what it reports is committed: {@link #record} after the caller's
 * transaction returned, {@link #afterCommit} from inside one (nothing is written or counted when
 * it rolls back, so a batch retried row by row is recorded once).
 *
 * <p>Never a secret: callers pass ids, times, reasons and client addresses; never a token, code,
 * client secret, verification code, password, an e-mail address typed into a form (it may be a
 * password typed in the wrong field) or a callback URI (its query may carry a receiver's token).
 */
public final class AuditLog {
    public static final String LOGGER = "dev.ledgerlink.audit";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    /** What happened; {@link #eventName} is what the log line and the counter's tag say. */
    public enum Event {
        /** A used refresh token came back after the replay window, and the grant's live tokens were revoked. */
        REFRESH_TOKEN_REPLAYED("refresh_token.replayed"),
        /** An authorization code was presented a second time; what its first use issued is revoked. */
        AUTHORIZATION_CODE_REUSED("authorization_code.reused"),
        /** A sign-in (authorization page or console) was refused by the failed-login throttle. */
        LOGIN_THROTTLED("login.throttled"),
        /** A callback was disabled: its endpoint failed for the whole window, answered 410, or an operator did it. */
        CALLBACK_DISABLED("callback.disabled"),
        /** An application was given a new client secret. */
        CLIENT_SECRET_ROTATED("client_secret.rotated"),
        /** The previous client secret of an application stopped authenticating before its overlap ended. */
        CLIENT_SECRET_RETIRED("client_secret.retired"),
        /** A callback was given a new verification code, the key of its signatures (resend, new uri). */
        CALLBACK_CODE_ROTATED("callback.code_rotated"),
        /** An operator issued tokens without a browser (ledgerlink tokens issue, the sandbox). */
        TOKENS_ISSUED_BY_OPERATOR("tokens.issued_by_operator"),
        /** A user (or an operator for them) disconnected an application: its tokens revoked, its consent forgotten. */
        CONNECTED_APP_DISCONNECTED("connected_app.disconnected"),
        /** A user enrolled an authenticator: sign-in asks for its code from now on. */
        SECOND_FACTOR_ENROLLED("second_factor.enrolled"),
        /** A user turned their second factor off (with a code), or an operator reset it. */
        SECOND_FACTOR_REMOVED("second_factor.removed"),
        /** A sign-in was completed with a recovery code instead of the authenticator's (that code is now spent). */
        RECOVERY_CODE_USED("second_factor.recovery_code_used"),
        /** A user replaced their recovery codes (the old ones stop working). */
        RECOVERY_CODES_REPLACED("second_factor.recovery_codes_replaced");

        private final String eventName;

        Event(String eventName) {
            this.eventName = eventName;
        }

        public String eventName() {
            return eventName;
        }
    }

    private final Map<Event, Counter> counters = new EnumMap<>(Event.class);

    /** Registers a counter per event at zero, so a dashboard sees every series from the start. */
    public AuditLog(MeterRegistry registry) {
        for (Event e : Event.values()) {
            counters.put(e, Counter.builder("ledgerlink.audit.events").tag("event", e.eventName())
                    .description("Audit events recorded (one log line each on dev.ledgerlink.audit)").register(registry));
        }
    }

    /**
     * Writes the line and counts it, now: call it once what is reported has committed.
     *
     * @param fields names and values in turn ({@code "grant_id", 12, "user_id", 3}); a value may be null
     */
    public void record(Event event, Object... fields) {
        if (fields.length % 2 != 0) throw new IllegalArgumentException("fields come in name, value pairs");
        counters.get(event).increment();
        try {
            Object[] args = new Object[fields.length / 2 + 1];
            StringBuilder format = new StringBuilder("{}");
            args[0] = StructuredArguments.kv("event", event.eventName());
            for (int i = 0; i < fields.length; i += 2) {
                format.append(" {}");
                args[i / 2 + 1] = StructuredArguments.kv((String) fields[i], fields[i + 1]);
            }
            LOG.info(format.toString(), args);
        } catch (RuntimeException e) {
            // What was audited has happened and is committed: a logging failure must not undo the answer.
            LoggerFactory.getLogger(AuditLog.class).warn("audit line for {} not written: {}", event.eventName(), e.toString());
        }
    }

    /**
     * The same, once the transaction of {@code h} commits (at once when {@code h} is not in one:
     * each statement has then committed on its own). Nothing when it rolls back.
     */
    public void afterCommit(Handle h, Event event, Object... fields) {
        if (h.isInTransaction()) {
            h.afterCommit(() -> record(event, fields));
        } else {
            record(event, fields);
        }
    }
}
