package dev.ledgerlink.delivery;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** The history queries: a page of deliveries, then all their attempts in one query (no N+1). */
final class DeliveryHistory {
    private DeliveryHistory() {}

    private static final String COLUMNS = """
            select d.id, d.callback_id, d.event_id, d.kind, coalesce(e.name, 'callback.verify') as name, d.state, d.attempts,
                   d.next_attempt_at, d.drop_reason, d.created_at, d.finished_at
            from deliveries d left join events e on e.id = d.event_id""";

    static final String PAGE = COLUMNS + " where d.callback_id = :id order by d.id desc limit :limit offset :offset";
    static final String ONE = COLUMNS + " where d.id = :id";

    /**
     * The operators' search: the conditions of the filters given, and only those (written as "a null
     * parameter is no filter", H2 could use no index for any of them, and read every delivery for a
     * callback's or a state's). The queued-at window is also an id range ({@code :fromId} to
     * {@code :toId}, store/WrittenOrder): deliveries has no index on created_at, and its ids follow it.
     */
    static String filter(boolean callback, boolean state, boolean since, boolean until) {
        StringBuilder w = new StringBuilder(" where d.id >= :fromId and d.id < :toId");
        if (callback) w.append(" and d.callback_id = :callbackId");
        if (state) w.append(" and d.state = :state");
        if (since) w.append(" and d.created_at >= :since");
        if (until) w.append(" and d.created_at < :until");
        return w.toString();
    }

    static String pageFiltered(String filter) {
        return COLUMNS + filter + " order by d.id desc limit :limit offset :offset";
    }

    /** At most {@code :cap} matches are counted: the whole table, millions of rows, is no count to take for a page. */
    static String countFiltered(String filter) {
        return "select count(*) from (select 1 from deliveries d" + filter + " limit :cap) x";
    }
    static final String ATTEMPTS = """
            select id, delivery_id, attempt, attempted_at, status_code, duration_ms, error,
                   request_headers, request_body, response_headers, response_body
            from delivery_attempts where delivery_id in (<ids>) order by id""";

    /** One delivery by id, without its attempts. */
    static Optional<DeliveryRecord> find(Handle h, long deliveryId) {
        return h.createQuery(ONE).bind("id", deliveryId).map(new RecordMapper()).findOne();
    }

    static final class RecordMapper implements RowMapper<DeliveryRecord> {
        @Override
        public DeliveryRecord map(ResultSet rs, StatementContext ctx) throws SQLException {
            long ev = rs.getLong("event_id");
            Long eventId = rs.wasNull() ? null : ev;
            return new DeliveryRecord(rs.getLong("id"), rs.getLong("callback_id"), eventId, DeliveryKind.stored(rs.getString("kind")),
                    rs.getString("name"), DeliveryState.stored(rs.getString("state")), rs.getInt("attempts"), TimeMapping.read(rs, "next_attempt_at"),
                    rs.getString("drop_reason"), TimeMapping.read(rs, "created_at"), TimeMapping.read(rs, "finished_at"),
                    java.util.List.of(), null);
        }
    }

    static final class AttemptMapper implements RowMapper<DeliveryRecord.Attempt> {
        @Override
        public DeliveryRecord.Attempt map(ResultSet rs, StatementContext ctx) throws SQLException {
            int status = rs.getInt("status_code");
            Integer statusCode = rs.wasNull() ? null : status;
            return new DeliveryRecord.Attempt(rs.getLong("id"), rs.getLong("delivery_id"), rs.getInt("attempt"),
                    TimeMapping.read(rs, "attempted_at"), statusCode, rs.getLong("duration_ms"), rs.getString("error"),
                    rs.getString("request_headers"), rs.getString("request_body"), rs.getString("response_headers"), rs.getString("response_body"));
        }
    }
}
