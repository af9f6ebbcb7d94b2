package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the Java migrations ask of the schema as it stands, so that each of their steps can check
 * whether it is already done (on H2, DDL commits at once: a start cut off in the middle of a
 * migration leaves some steps done). Names are compared in lower case: a URL that sets its own MODE
 * may leave H2's identifiers upper-case.
 */
final class SchemaQueries {
    private SchemaQueries() {}

    static boolean isH2(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase().contains("h2");
    }

    /** The column's data type as the database names it, or null when the table has no such column. */
    static String columnType(Connection c, String table, String column) throws SQLException {
        return first(c, """
                select data_type from information_schema.columns
                where table_schema = current_schema and lower(table_name) = ? and lower(column_name) = ?""", table, column);
    }

    static boolean hasConstraint(Connection c, String table, String constraint) throws SQLException {
        return first(c, """
                select constraint_name from information_schema.table_constraints
                where table_schema = current_schema and lower(table_name) = ? and lower(constraint_name) = ?""", table, constraint) != null;
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String first(Connection c, String sql, String... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) s.setString(i + 1, parameters[i]);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
