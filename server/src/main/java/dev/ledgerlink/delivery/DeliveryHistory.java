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
     * The operators' search; a null parameter is no filter. The queued-at window is also an id range
     * ({@code :fromId} to {@code :toId}, store/WrittenOrder): deliveries has no index on created_at,
     * and its ids follow it.
     */
    private static final String FILTER = """
             where d.id >= :fromId and d.id < :toId
               and (cast(:callbackId as bigint) is null or d.callback_id = :callbackId)
               and (cast(:state as varchar(16)) is null or d.state = :state)
               and (cast(:since as timestamp with time zone) is null or d.created_at >= :since)
               and (cast(:until as timestamp with time zone) is null or d.created_at < :until)""";
    static final String PAGE_FILTERED = COLUMNS + " " + FILTER + " order by d.id desc limit :limit offset :offset";
    /** At most {@code :cap} matches are counted: the whole table, millions of rows, is no count to take for a page. */
    static final String COUNT_FILTERED = "select count(*) from (select 1 from deliveries d " + FILTER + " limit :cap) x";
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
