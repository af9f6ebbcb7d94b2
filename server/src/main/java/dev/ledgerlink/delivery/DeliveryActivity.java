package dev.ledgerlink.delivery;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Recent attempts across callbacks, for the console: the live tail (attempts after a given id),
 * attempts per minute by outcome, and each callback's latest attempt. {@code :all} true reads every
 * account; otherwise only callbacks of {@code <accountIds>}.
 */
public final class DeliveryActivity {
    private DeliveryActivity() {}

    private static final String SCOPE = "(:all or c.account_id in (<accountIds>))";

    static final String TAIL = """
            select a.id, a.delivery_id, d.callback_id, c.account_id, c.uri, coalesce(e.name, 'callback.verify') as name,
                   a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error
            from delivery_attempts a
            join deliveries d on d.id = a.delivery_id
            join callbacks c on c.id = d.callback_id
            left join events e on e.id = d.event_id
            where a.id > :after and %s
            order by a.id desc limit :limit""".formatted(SCOPE);

    static final String LATEST_ID = "select coalesce(max(id), 0) from delivery_attempts";

    /** Outcomes: delivered (2xx), failed (any other status), no_response (timeout, refused connection, ...). */
    static final String PER_MINUTE = """
            select date_trunc('minute', a.attempted_at) as minute_start,
                   case when a.status_code is null then 'no_response'
                        when a.status_code between 200 and 299 then 'delivered' else 'failed' end as outcome,
                   count(*) as attempts
            from delivery_attempts a
            join deliveries d on d.id = a.delivery_id
            join callbacks c on c.id = d.callback_id
            where a.attempted_at >= :since and %s
            group by date_trunc('minute', a.attempted_at),
                     case when a.status_code is null then 'no_response'
                          when a.status_code between 200 and 299 then 'delivered' else 'failed' end""".formatted(SCOPE);

    /** Written by the result recorder ({@link DeliveryStore#RECORD_LAST_ATTEMPT}): one row per callback, read by its key. */
    static final String LAST_ATTEMPTS = """
            select callback_id, delivery_id, attempt, attempted_at, status_code, duration_ms, error
            from callback_last_attempts where callback_id in (<callbackIds>) and attempted_at is not null""";

    /** One attempt as the live tail shows it. */
    public record TailEntry(long attemptId, long deliveryId, long callbackId, String accountId, String uri, String name,
                            int attempt, Instant attemptedAt, Integer statusCode, long durationMs, String error) {
        public String outcome() {
            return statusCode == null ? "no_response" : statusCode >= 200 && statusCode < 300 ? "delivered" : "failed";
        }
    }

    /** How many attempts of one outcome began in one minute. */
    public record MinuteCount(Instant minute, String outcome, long attempts) {}

    /** A callback's latest attempt. */
    public record LastAttempt(long callbackId, long deliveryId, int attempt, Instant attemptedAt, Integer statusCode, long durationMs, String error) {
        public boolean succeeded() {
            return statusCode != null && statusCode >= 200 && statusCode < 300;
        }
    }

    static final class TailMapper implements RowMapper<TailEntry> {
        @Override
        public TailEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new TailEntry(rs.getLong("id"), rs.getLong("delivery_id"), rs.getLong("callback_id"), rs.getString("account_id"),
                    rs.getString("uri"), rs.getString("name"), rs.getInt("attempt"), TimeMapping.read(rs, "attempted_at"),
                    status(rs), rs.getLong("duration_ms"), rs.getString("error"));
        }
    }

    static final class MinuteMapper implements RowMapper<MinuteCount> {
        @Override
        public MinuteCount map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new MinuteCount(TimeMapping.read(rs, "minute_start"), rs.getString("outcome"), rs.getLong("attempts"));
        }
    }

    static final class LastMapper implements RowMapper<LastAttempt> {
        @Override
        public LastAttempt map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new LastAttempt(rs.getLong("callback_id"), rs.getLong("delivery_id"), rs.getInt("attempt"),
                    TimeMapping.read(rs, "attempted_at"), status(rs), rs.getLong("duration_ms"), rs.getString("error"));
        }
    }

    private static Integer status(ResultSet rs) throws SQLException {
        int s = rs.getInt("status_code");
        return rs.wasNull() ? null : s;
    }
}
