package dev.ledgerlink.delivery;

import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * Attempts per minute and status (null: no response) of every account, from the attempts' time
     * index alone; {@link #outcomeOf} sorts the statuses into outcomes.
     */
    static final String PER_MINUTE = """
            select date_trunc('minute', a.attempted_at) as minute_start, a.status_code, count(*) as attempts
            from delivery_attempts a
            where a.attempted_at >= :since
            group by date_trunc('minute', a.attempted_at), a.status_code""";

    /**
     * The same for the callbacks of {@code <accountIds>}: each recent attempt's delivery and callback
     * are looked up by their keys. As a join of the three tables the planner read every delivery (a
     * hash join over the whole history) to match a few thousand recent attempts.
     */
    static final String PER_MINUTE_OF_ACCOUNTS = """
            select date_trunc('minute', a.attempted_at) as minute_start, a.status_code, count(*) as attempts
            from delivery_attempts a
            where a.attempted_at >= :since
              and exists (select 1 from deliveries d join callbacks c on c.id = d.callback_id
                          where d.id = a.delivery_id and c.account_id in (<accountIds>))
            group by date_trunc('minute', a.attempted_at), a.status_code""";

    /** Written by the result recorder ({@link DeliveryStore#RECORD_LAST_ATTEMPT}): one row per callback, read by its key. */
    static final String LAST_ATTEMPTS = """
            select callback_id, delivery_id, attempt, attempted_at, status_code, duration_ms, error
            from callback_last_attempts where callback_id in (<callbackIds>) and attempted_at is not null""";

    /** An attempt's outcome as the console shows it: delivered (it succeeded), failed (any other answer), or no_response. */
    public static String outcomeOf(Integer statusCode) {
        if (statusCode == null) return "no_response";
        return RetryRule.succeeded(statusCode) ? "delivered" : "failed";
    }

    /** One attempt as the live tail shows it. */
    public record TailEntry(long attemptId, long deliveryId, long callbackId, String accountId, String uri, String name,
                            int attempt, Instant attemptedAt, Integer statusCode, long durationMs, String error) {
        public String outcome() {
            return outcomeOf(statusCode);
        }
    }

    /** How many attempts of one outcome began in one minute. */
    public record MinuteCount(Instant minute, String outcome, long attempts) {}

    /** A callback's latest attempt. */
    public record LastAttempt(long callbackId, long deliveryId, int attempt, Instant attemptedAt, Integer statusCode, long durationMs, String error) {}

    static final class TailMapper implements RowMapper<TailEntry> {
        @Override
        public TailEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new TailEntry(rs.getLong("id"), rs.getLong("delivery_id"), rs.getLong("callback_id"), rs.getString("account_id"),
                    rs.getString("uri"), rs.getString("name"), rs.getInt("attempt"), TimeMapping.read(rs, "attempted_at"),
                    status(rs), rs.getLong("duration_ms"), rs.getString("error"));
        }
    }

    /** A row of {@link #PER_MINUTE}, its status already sorted into its outcome (rows of one minute and outcome are summed by the caller). */
    static final class MinuteMapper implements RowMapper<MinuteCount> {
        @Override
        public MinuteCount map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new MinuteCount(TimeMapping.read(rs, "minute_start"), outcomeOf(status(rs)), rs.getLong("attempts"));
        }
    }

    /** The counts of one minute and outcome summed into one, in the order first seen. */
    static List<MinuteCount> summed(List<MinuteCount> rows) {
        Map<List<Object>, MinuteCount> out = new LinkedHashMap<>();
        for (MinuteCount c : rows) {
            out.merge(List.of(c.minute(), c.outcome()), c, (a, b) -> new MinuteCount(a.minute(), a.outcome(), a.attempts() + b.attempts()));
        }
        return List.copyOf(out.values());
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
