package dev.ledgerlink.errors;

import java.sql.SQLException;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A failure and its causes, outermost first: what the database, the driver, the pool and the HTTP
 * layer wrap in one another. The one place the cause chain is walked (a cause that is its own cause,
 * or a chain longer than any real one, ends the walk).
 */
public final class Causes {
    private static final int LONGEST = 64;

    private Causes() {}

    public static Stream<Throwable> of(Throwable failure) {
        return Stream.iterate(failure, t -> t != null, t -> t.getCause() == t ? null : t.getCause()).limit(LONGEST);
    }

    public static boolean any(Throwable failure, Predicate<Throwable> test) {
        return of(failure).anyMatch(test);
    }

    /** True when the failure or a cause is an SQLException with one of these SQLSTATEs. */
    public static boolean hasSqlState(Throwable failure, Set<String> states) {
        return any(failure, t -> t instanceof SQLException sql && sql.getSQLState() != null && states.contains(sql.getSQLState()));
    }

    /** The innermost cause. */
    public static Throwable root(Throwable failure) {
        return of(failure).reduce((outer, inner) -> inner).orElse(failure);
    }
}
