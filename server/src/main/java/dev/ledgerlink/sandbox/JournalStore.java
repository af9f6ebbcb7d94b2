package dev.ledgerlink.sandbox;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlBatch;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The sandbox_requests table (V35): the journal of the applications' calls. */
@RegisterRowMapper(JournalStore.EntryMapper.class)
interface JournalStore {
    String COLUMNS = "id, received_at, client_id, method, path, status, error, error_description, duration_ms";

    @SqlBatch("""
            insert into sandbox_requests (received_at, client_id, method, path, status, error, error_description, duration_ms)
            values (:receivedAt, :clientId, :method, :path, :status, :error, :errorDescription, :durationMs)""")
    void insert(@Bind("receivedAt") List<Instant> receivedAt, @Bind("clientId") List<String> clientId, @Bind("method") List<String> method,
                @Bind("path") List<String> path, @Bind("status") List<Integer> status, @Bind("error") List<String> error,
                @Bind("errorDescription") List<String> errorDescription, @Bind("durationMs") List<Integer> durationMs);

    /** The id of the oldest entry to keep when {@code keep} are kept (the keep-th newest), if there are that many. */
    @SqlQuery("select id from sandbox_requests order by id desc limit 1 offset :skip")
    Optional<Long> idAt(int skip);

    @SqlUpdate("delete from sandbox_requests where id < :oldestKept")
    int deleteBefore(long oldestKept);

    @SqlQuery("select " + COLUMNS + " from sandbox_requests order by id desc limit :limit")
    List<JournalEntry> newest(int limit);

    @SqlQuery("select " + COLUMNS + " from sandbox_requests where client_id = :clientId order by id desc limit :limit")
    List<JournalEntry> newestOf(String clientId, int limit);

    final class EntryMapper implements RowMapper<JournalEntry> {
        @Override
        public JournalEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new JournalEntry(rs.getLong("id"), TimeMapping.read(rs, "received_at"), rs.getString("client_id"), rs.getString("method"),
                    rs.getString("path"), rs.getInt("status"), rs.getString("error"), rs.getString("error_description"), rs.getInt("duration_ms"));
        }
    }
}
