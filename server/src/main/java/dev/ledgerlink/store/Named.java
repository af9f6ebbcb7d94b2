package dev.ledgerlink.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A statement written with JDBI's named parameters ({@code :name}) that runs as plain JDBC
 * ({@link PlainJdbc}): parsed once, when the constant is made, into the {@code ?} text JDBC takes
 * and each name's positions in it, so the SQL reads the same as every JDBI statement's while the hot
 * paths keep plain JDBC's cost. A name may appear several times ({@code :now}); {@code ::} is
 * PostgreSQL's cast, and nothing inside quotes is a parameter. {@link #text} is the SQL as written,
 * for JDBI (tests that explain a statement's plan).
 */
public final class Named {
    private final String text;
    private final String jdbc;
    private final Map<String, int[]> positions;

    private Named(String text, String jdbc, Map<String, int[]> positions) {
        this.text = text;
        this.jdbc = jdbc;
        this.positions = positions;
    }

    /** Parses {@code sql}; a positional {@code ?} in it is refused, so the two kinds never mix. */
    public static Named sql(String sql) {
        StringBuilder jdbc = new StringBuilder(sql.length());
        Map<String, List<Integer>> found = new HashMap<>();
        int position = 0;
        boolean quoted = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') quoted = !quoted;
            if (!quoted && c == '?') throw new IllegalArgumentException("a positional parameter in a named statement: " + sql);
            if (!quoted && c == ':' && i + 1 < sql.length() && sql.charAt(i + 1) == ':') {
                jdbc.append("::");
                i++;
                continue;
            }
            if (!quoted && c == ':' && i + 1 < sql.length() && Character.isJavaIdentifierStart(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < sql.length() && Character.isJavaIdentifierPart(sql.charAt(end))) end++;
                found.computeIfAbsent(sql.substring(i + 1, end), k -> new ArrayList<>()).add(++position);
                jdbc.append('?');
                i = end - 1;
                continue;
            }
            jdbc.append(c);
        }
        Map<String, int[]> positions = new HashMap<>();
        found.forEach((name, at) -> positions.put(name, at.stream().mapToInt(Integer::intValue).toArray()));
        return new Named(sql, jdbc.toString(), Map.copyOf(positions));
    }

    /** The SQL as written, with its named parameters. */
    public String text() {
        return text;
    }

    /** The SQL JDBC prepares: each named parameter a {@code ?}. */
    String jdbc() {
        return jdbc;
    }

    /** Parameters bound by name on a prepared statement of this SQL. */
    Params on(PreparedStatement statement) {
        return new Params(statement);
    }

    @Override
    public String toString() {
        return text;
    }

    /** Sets a statement's parameters by name; each value goes to every place its name appears. */
    public final class Params {
        private final PreparedStatement statement;

        private Params(PreparedStatement statement) {
            this.statement = statement;
        }

        private int[] at(String name) {
            int[] at = positions.get(name);
            if (at == null) throw new IllegalArgumentException("no parameter :" + name + " in: " + text);
            return at;
        }

        public Params set(String name, long value) throws SQLException {
            for (int i : at(name)) statement.setLong(i, value);
            return this;
        }

        public Params set(String name, int value) throws SQLException {
            for (int i : at(name)) statement.setInt(i, value);
            return this;
        }

        public Params set(String name, boolean value) throws SQLException {
            for (int i : at(name)) statement.setBoolean(i, value);
            return this;
        }

        /** A null stays a typed null. */
        public Params set(String name, String value) throws SQLException {
            for (int i : at(name)) statement.setString(i, value);
            return this;
        }

        public Params set(String name, byte[] value) throws SQLException {
            for (int i : at(name)) statement.setBytes(i, value);
            return this;
        }

        /** As every reader of instants expects (TimeMapping); a null stays a typed null. */
        public Params set(String name, Instant value) throws SQLException {
            for (int i : at(name)) {
                if (value == null) statement.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
                else TimeMapping.bind(statement, i, value);
            }
            return this;
        }

        /** An integer that may be null. */
        public Params setInteger(String name, Integer value) throws SQLException {
            for (int i : at(name)) {
                if (value == null) statement.setNull(i, Types.INTEGER);
                else statement.setInt(i, value);
            }
            return this;
        }

        /** A JDBC array (PostgreSQL's {@code unnest} of many rows' values). */
        public Params set(String name, java.sql.Array value) throws SQLException {
            for (int i : at(name)) statement.setArray(i, value);
            return this;
        }

        /** The statement's connection (to make arrays with). */
        public java.sql.Connection connection() throws SQLException {
            return statement.getConnection();
        }
    }
}
