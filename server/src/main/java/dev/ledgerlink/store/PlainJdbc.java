package dev.ledgerlink.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Handle;
import org.postgresql.PGStatement;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Plain JDBC on a JDBI handle's connection, for the few statements of the hottest paths (the refresh
 * grant, client authentication, bearer verification, a publish, the delivery outcomes' batches);
 * everything else uses JDBI. Why: for every statement JDBI copies its configuration, and looks up an
 * argument factory per bound value and a column mapper per column read; in the profiles of refresh
 * grants and deliveries that cost more than the work of the statements outside the database
 * (docs/benchmarks-history.md, "Plain JDBC for the hottest statements", "Deliveries' statements as plain JDBC").
 *
 * <p>The statements run on the handle's connection, so in its transaction. A failure is thrown the
 * way JDBI throws it (an UnableToExecuteStatementException caused by the SQLException), so the rules
 * that read SQL states (Deadlocks, Constraints, DatabaseUnavailable) see no difference.
 */
public final class PlainJdbc {
    private static final String[] ID = {"id"};

    private PlainJdbc() {}

    /** Sets the statement's parameters, by position. */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads the current row; null when the row does not count (a token whose secret does not match). */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** Runs an insert, update or delete; returns its row count. */
    public static int update(Handle h, String sql, Binder binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql)) {
            binder.bind(statement);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Runs an insert of one row into a table whose primary key is an identity column {@code id}; returns the new id. */
    public static long insert(Handle h, String sql, Binder binder) {
        return insertIfAny(h, sql, binder).orElseThrow(() -> new IllegalStateException("No generated id for: " + sql));
    }

    /**
     * Runs an insert of at most one row ({@code insert ... select ... where}) into a table whose primary
     * key is an identity column {@code id}; returns the new id, or empty when its condition inserted none.
     */
    public static OptionalLong insertIfAny(Handle h, String sql, Binder binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql, ID)) {
            binder.bind(statement);
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                return keys.next() ? OptionalLong.of(keys.getLong(1)) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Sets one row's parameters of a batch, by position. */
    @FunctionalInterface
    public interface RowBinder<T> {
        void bind(PreparedStatement statement, T row) throws SQLException;
    }

    /**
     * Runs one statement for each row, sent together (one round trip with PostgreSQL's driver); returns
     * each row's count, in order. Nothing is sent for no rows.
     */
    public static <T> int[] batch(Handle h, String sql, Iterable<T> rows, RowBinder<T> binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql)) {
            int n = 0;
            for (T row : rows) {
                binder.bind(statement, row);
                statement.addBatch();
                n++;
            }
            return n == 0 ? new int[0] : statement.executeBatch();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Runs a query of at most one row (a probe of a unique index); more than one is a bug, as with JDBI's findOne. */
    public static <T> Optional<T> queryOne(Handle h, String sql, Binder binder, RowReader<T> reader) {
        return queryOne(h, sql, false, binder, reader);
    }

    /** {@link #queryOne}, planned for its parameters every time it runs (see {@link #queryPlannedEachTime}). */
    public static <T> Optional<T> queryOnePlannedEachTime(Handle h, String sql, Binder binder, RowReader<T> reader) {
        return queryOne(h, sql, true, binder, reader);
    }

    private static <T> Optional<T> queryOne(Handle h, String sql, boolean planEachTime, Binder binder, RowReader<T> reader) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql)) {
            if (planEachTime) planEachTime(statement);
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) return Optional.empty();
                T row = reader.read(rows);
                if (rows.next()) throw new IllegalStateException("Expected zero to one rows for query: " + sql);
                return Optional.ofNullable(row);
            }
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /**
     * Runs a query planned for its parameters every time it runs; returns its rows that count, in
     * order. For a statement whose best plan depends on the sizes of its inputs and tables (a join of
     * an array of keys to a table that grows from nothing): PostgreSQL would otherwise settle, after
     * five runs on a connection, on a generic plan made for the table as it was then, and keep it
     * until the next ANALYZE (a sequential scan of a token table that had a page when the server
     * started and a million rows an hour later). The price is planning on every run.
     */
    public static <T> List<T> queryPlannedEachTime(Handle h, String sql, Binder binder, RowReader<T> reader) {
        return query(h, sql, true, binder, reader);
    }

    /** Runs a query; returns its rows that count, in order. */
    public static <T> List<T> query(Handle h, String sql, Binder binder, RowReader<T> reader) {
        return query(h, sql, false, binder, reader);
    }

    private static <T> List<T> query(Handle h, String sql, boolean planEachTime, Binder binder, RowReader<T> reader) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql)) {
            if (planEachTime) planEachTime(statement);
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                List<T> read = new ArrayList<>();
                while (rows.next()) {
                    T row = reader.read(rows);
                    if (row != null) read.add(row);
                }
                return read;
            }
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    // The same, for statements written with named parameters (Named): what the hot paths use.

    /** Sets a named statement's parameters. */
    @FunctionalInterface
    public interface NamedBinder {
        void bind(Named.Params params) throws SQLException;
    }

    /** Sets one row's parameters of a named statement's batch. */
    @FunctionalInterface
    public interface NamedRowBinder<T> {
        void bind(Named.Params params, T row) throws SQLException;
    }

    /** {@link #update(Handle, String, Binder)} of a named statement. */
    public static int update(Handle h, Named sql, NamedBinder binder) {
        return update(h, sql.jdbc(), s -> binder.bind(sql.on(s)));
    }

    /** {@link #insert(Handle, String, Binder)} of a named statement. */
    public static long insert(Handle h, Named sql, NamedBinder binder) {
        return insert(h, sql.jdbc(), s -> binder.bind(sql.on(s)));
    }

    /** {@link #insertIfAny(Handle, String, Binder)} of a named statement. */
    public static OptionalLong insertIfAny(Handle h, Named sql, NamedBinder binder) {
        return insertIfAny(h, sql.jdbc(), s -> binder.bind(sql.on(s)));
    }

    /** {@link #batch(Handle, String, Iterable, RowBinder)} of a named statement. */
    public static <T> int[] batch(Handle h, Named sql, Iterable<T> rows, NamedRowBinder<T> binder) {
        return batch(h, sql.jdbc(), rows, (s, row) -> binder.bind(sql.on(s), row));
    }

    /** {@link #queryOne(Handle, String, Binder, RowReader)} of a named statement. */
    public static <T> Optional<T> queryOne(Handle h, Named sql, NamedBinder binder, RowReader<T> reader) {
        return queryOne(h, sql.jdbc(), false, s -> binder.bind(sql.on(s)), reader);
    }

    /** {@link #queryOnePlannedEachTime(Handle, String, Binder, RowReader)} of a named statement. */
    public static <T> Optional<T> queryOnePlannedEachTime(Handle h, Named sql, NamedBinder binder, RowReader<T> reader) {
        return queryOne(h, sql.jdbc(), true, s -> binder.bind(sql.on(s)), reader);
    }

    /** {@link #query(Handle, String, Binder, RowReader)} of a named statement. */
    public static <T> List<T> query(Handle h, Named sql, NamedBinder binder, RowReader<T> reader) {
        return query(h, sql.jdbc(), false, s -> binder.bind(sql.on(s)), reader);
    }

    /** {@link #queryPlannedEachTime(Handle, String, Binder, RowReader)} of a named statement. */
    public static <T> List<T> queryPlannedEachTime(Handle h, Named sql, NamedBinder binder, RowReader<T> reader) {
        return query(h, sql.jdbc(), true, s -> binder.bind(sql.on(s)), reader);
    }

    /** PostgreSQL: never prepared on the server, so never run with a plan kept from an earlier run. */
    private static void planEachTime(PreparedStatement statement) throws SQLException {
        if (statement.isWrapperFor(PGStatement.class)) statement.unwrap(PGStatement.class).setPrepareThreshold(0);
    }

    private static UnableToExecuteStatementException failed(String sql, SQLException e) {
        return new UnableToExecuteStatementException(e.getMessage() + " [statement: " + sql.replaceAll("\\s+", " ") + "]", e, null);
    }
}
