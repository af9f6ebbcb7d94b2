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
 * <p>The statements are written with JDBI's named parameters ({@link Named}), as every other
 * statement is, and run on the handle's connection, so in its transaction. A failure is thrown the
 * way JDBI throws it (an UnableToExecuteStatementException caused by the SQLException), so the rules
 * that read SQL states (Deadlocks, Constraints, DatabaseUnavailable) see no difference.
 */
public final class PlainJdbc {
    private static final String[] ID = {"id"};

    private PlainJdbc() {}

    /** Sets a statement's parameters, by name. */
    @FunctionalInterface
    public interface Binder {
        void bind(Named.Params params) throws SQLException;
    }

    /** Sets one row's parameters of a batch, by name. */
    @FunctionalInterface
    public interface RowBinder<T> {
        void bind(Named.Params params, T row) throws SQLException;
    }

    /** Reads the current row; null when the row does not count (a token whose secret does not match). */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** Runs an insert, update or delete; returns its row count. */
    public static int update(Handle h, Named sql, Binder binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql.jdbc())) {
            binder.bind(sql.on(statement));
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Runs an insert of one row into a table whose primary key is an identity column {@code id}; returns the new id. */
    public static long insert(Handle h, Named sql, Binder binder) {
        return insertIfAny(h, sql, binder).orElseThrow(() -> new IllegalStateException("No generated id for: " + sql));
    }

    /**
     * Runs an insert of at most one row ({@code insert ... select ... where}) into a table whose primary
     * key is an identity column {@code id}; returns the new id, or empty when its condition inserted none.
     */
    public static OptionalLong insertIfAny(Handle h, Named sql, Binder binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql.jdbc(), ID)) {
            binder.bind(sql.on(statement));
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                return keys.next() ? OptionalLong.of(keys.getLong(1)) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /**
     * Runs one statement for each row, sent together (one round trip with PostgreSQL's driver); returns
     * each row's count, in order. Nothing is sent for no rows.
     */
    public static <T> int[] batch(Handle h, Named sql, Iterable<T> rows, RowBinder<T> binder) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql.jdbc())) {
            Named.Params params = sql.on(statement);
            int n = 0;
            for (T row : rows) {
                binder.bind(params, row);
                statement.addBatch();
                n++;
            }
            return n == 0 ? new int[0] : statement.executeBatch();
        } catch (SQLException e) {
            throw failed(sql, e);
        }
    }

    /** Runs a query of at most one row (a probe of a unique index); more than one is a bug, as with JDBI's findOne. */
    public static <T> Optional<T> queryOne(Handle h, Named sql, Binder binder, RowReader<T> reader) {
        return queryOne(h, sql, false, binder, reader);
    }

    /** {@link #queryOne}, planned for its parameters every time it runs (see {@link #queryPlannedEachTime}). */
    public static <T> Optional<T> queryOnePlannedEachTime(Handle h, Named sql, Binder binder, RowReader<T> reader) {
        return queryOne(h, sql, true, binder, reader);
    }

    private static <T> Optional<T> queryOne(Handle h, Named sql, boolean planEachTime, Binder binder, RowReader<T> reader) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql.jdbc())) {
            if (planEachTime) planEachTime(statement);
            binder.bind(sql.on(statement));
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
    public static <T> List<T> queryPlannedEachTime(Handle h, Named sql, Binder binder, RowReader<T> reader) {
        return query(h, sql, true, binder, reader);
    }

    /** Runs a query; returns its rows that count, in order. */
    public static <T> List<T> query(Handle h, Named sql, Binder binder, RowReader<T> reader) {
        return query(h, sql, false, binder, reader);
    }

    private static <T> List<T> query(Handle h, Named sql, boolean planEachTime, Binder binder, RowReader<T> reader) {
        try (PreparedStatement statement = h.getConnection().prepareStatement(sql.jdbc())) {
            if (planEachTime) planEachTime(statement);
            binder.bind(sql.on(statement));
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

    /** PostgreSQL: never prepared on the server, so never run with a plan kept from an earlier run. */
    private static void planEachTime(PreparedStatement statement) throws SQLException {
        if (statement.isWrapperFor(PGStatement.class)) statement.unwrap(PGStatement.class).setPrepareThreshold(0);
    }

    private static UnableToExecuteStatementException failed(Named sql, SQLException e) {
        return new UnableToExecuteStatementException(e.getMessage() + " [statement: " + sql.text().replaceAll("\\s+", " ") + "]", e, null);
    }
}
