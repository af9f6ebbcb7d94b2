package dev.ledgerlink.store;

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
 */
final class TimeMapping {
    private TimeMapping() {}

    static void install(Jdbi jdbi) {
        jdbi.registerArgument(new AbstractArgumentFactory<Instant>(Types.TIMESTAMP_WITH_TIMEZONE) {
            @Override
            protected Argument build(Instant value, ConfigRegistry config) {
                return (position, statement, ctx) ->
                        statement.setObject(position, value.atOffset(ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
            }
        });
        jdbi.registerColumnMapper(Instant.class, (rs, col, ctx) -> {
            OffsetDateTime t = rs.getObject(col, OffsetDateTime.class);
            return t == null ? null : t.toInstant();
        });
    }
}
