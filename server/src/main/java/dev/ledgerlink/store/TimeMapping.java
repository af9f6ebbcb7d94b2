package dev.ledgerlink.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.argument.AbstractArgumentFactory;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.config.ConfigRegistry;

/**
 * Instants are written and read as OffsetDateTime in UTC on both databases, so no value depends on
 * the JVM's or the database session's time zone. Columns are {@code timestamp with time zone}.
 * JDBI uses the mapping registered by {@link #install}; the plain-JDBC statements of the hot paths
 * ({@link PlainJdbc}) call {@link #bind} and {@link #read} directly.
 */
public final class TimeMapping {
    private TimeMapping() {}

    static void install(Jdbi jdbi) {
        jdbi.registerArgument(new AbstractArgumentFactory<Instant>(Types.TIMESTAMP_WITH_TIMEZONE) {
            @Override
            protected Argument build(Instant value, ConfigRegistry config) {
                return (position, statement, ctx) -> bind(statement, position, value);
            }
        });
        jdbi.registerColumnMapper(Instant.class, (rs, col, ctx) -> read(rs, col));
    }

    /** Binds a non-null instant as UTC. */
    public static void bind(PreparedStatement statement, int position, Instant value) throws SQLException {
        statement.setObject(position, value.atOffset(ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
    }

    /** The instant in a column, or null. */
    public static Instant read(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    /** The instant in a column, or null. */
    public static Instant read(ResultSet rs, String column) throws SQLException {
        return read(rs, rs.findColumn(column));
    }
}
