package dev.ledgerlink.sandbox;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The sandbox_faults table and its version row (V35). */
@RegisterRowMapper(FaultStore.RuleMapper.class)
interface FaultStore {
    String COLUMNS = "id, route, client_id, grant_type, status, retry_after, error, latency_ms, times, remaining, created_at";

    @SqlUpdate("""
            insert into sandbox_faults (route, client_id, grant_type, status, retry_after, error, latency_ms, times, remaining, created_at)
            values (:route, :clientId, :grantType, :status, :retryAfter, :error, :latencyMs, :times, :times, :createdAt)""")
    @GetGeneratedKeys("id")
    long insert(String route, String clientId, String grantType, Integer status, Integer retryAfter, String error, Integer latencyMs,
                int times, Instant createdAt);

    @SqlQuery("select " + COLUMNS + " from sandbox_faults order by id")
    List<FaultRule> all();

    @SqlQuery("select " + COLUMNS + " from sandbox_faults where remaining > 0 order by id")
    List<FaultRule> active();

    /** 1 when this request took one of the rule's remaining matches, 0 when none was left (another process took the last). */
    @SqlUpdate("update sandbox_faults set remaining = remaining - 1 where id = :id and remaining > 0")
    int take(long id);

    @SqlUpdate("delete from sandbox_faults")
    int deleteAll();

    @SqlQuery("select version from sandbox_fault_version where id = 1")
    long version();

    @SqlUpdate("update sandbox_fault_version set version = version + 1 where id = 1")
    void bump();

    final class RuleMapper implements RowMapper<FaultRule> {
        @Override
        public FaultRule map(ResultSet rs, StatementContext ctx) throws SQLException {
            var effect = new FaultRule.Effect(integer(rs, "status"), integer(rs, "retry_after"), rs.getString("error"), integer(rs, "latency_ms"));
            return new FaultRule(rs.getLong("id"), FaultRoute.byName(rs.getString("route")).orElseThrow(), rs.getString("client_id"),
                    rs.getString("grant_type"), effect, rs.getInt("times"), rs.getInt("remaining"), TimeMapping.read(rs, "created_at"));
        }

        private static Integer integer(ResultSet rs, String column) throws SQLException {
            int v = rs.getInt(column);
            return rs.wasNull() ? null : v;
        }
    }
}
