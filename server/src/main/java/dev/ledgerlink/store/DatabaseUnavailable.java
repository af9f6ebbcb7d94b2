package dev.ledgerlink.store;

import dev.ledgerlink.errors.Causes;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Whether a failure means the database could not be reached (down, restarting, the network gone),
 * as opposed to a statement it refused. Such a failure is the service's momentary state, not the
 * request's fault: the web layer answers 503 with Retry-After (decisions.md, "Durability and
 * failure"), and the background workers wait and try again.
 */
public final class DatabaseUnavailable {
    /** PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now (SQLSTATE class 57P). */
    private static final Set<String> SHUTTING_DOWN = Set.of("57P01", "57P02", "57P03");
    /** H2: connection broken, database closed, database called at shutdown. */
    private static final Set<String> H2_GONE = Set.of("90067", "90098", "90121");

    private DatabaseUnavailable() {}

    public static boolean causedBy(Throwable failure) {
        return Causes.any(failure, DatabaseUnavailable::unreachable);
    }

    private static boolean unreachable(Throwable t) {
        // Hikari's "connection is not available, request timed out" and the drivers' connection failures
        if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) return true;
        if (!(t instanceof SQLException sql) || sql.getSQLState() == null) return false;
        String state = sql.getSQLState();
        // SQLSTATE class 08: connection exception (refused, broken, failure while sending)
        return state.startsWith("08") || SHUTTING_DOWN.contains(state) || H2_GONE.contains(state);
    }
}
