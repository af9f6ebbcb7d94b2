package dev.ledgerlink.callbacks;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
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
                rs.getString("verifier_hash"),
                instant(rs, "failing_since"),
                instant(rs, "created_at"),
                instant(rs, "updated_at"),
                rs.getInt("verify_failures"),
                instant(rs, "verify_failures_since"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }
}
