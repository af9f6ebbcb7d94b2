package dev.ledgerlink.callbacks;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** Maps a callbacks row to {@link Callback}. */
public final class CallbackRows implements RowMapper<Callback> {
    @Override
    public Callback map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Callback(
                rs.getLong("id"),
                rs.getString("account_id"),
                rs.getLong("application_id"),
                rs.getLong("user_id"),
                rs.getString("event"),
                rs.getString("uri"),
                rs.getBoolean("verified"),
                rs.getBoolean("disabled"),
                rs.getString("verifier_sealed"),
                rs.getString("verifier_key"),
                rs.getString("verifier_hash"),
                TimeMapping.read(rs, "failing_since"),
                TimeMapping.read(rs, "created_at"),
                TimeMapping.read(rs, "updated_at"),
                rs.getInt("verify_failures"),
                TimeMapping.read(rs, "verify_failures_since"),
                TimeMapping.read(rs, "rekeying_since"),
                nullableInt(rs, "rate_limit"),
                rs.getBoolean("ordered"));
    }

    private static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }
}
