package dev.ledgerlink.store;

import java.util.function.Function;
import org.jdbi.v3.core.Handle;

/**
 * One part of a transaction that may fail on its own: it runs under a savepoint, and when it throws,
 * only its statements are undone and the transaction goes on. The savepoint is what makes that work
 * on PostgreSQL, which refuses every later statement of a transaction after a failed one until it is
 * rolled back to a savepoint (H2 would carry on, but the failed part's earlier statements would stay).
 */
public final class Savepoints {
    private Savepoints() {}

    /** What the part returned, or the exception it threw (its statements then undone). */
    public record Attempt<T>(T result, RuntimeException failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    /**
     * Runs {@code part} under the savepoint {@code name} of {@code h}'s open transaction. A failure to
     * roll back or release the savepoint itself (the connection gone) is thrown: then the whole
     * transaction has failed.
     */
    public static <T> Attempt<T> attempt(Handle h, String name, Function<Handle, T> part) {
        h.savepoint(name);
        T result;
        try {
            result = part.apply(h);
        } catch (RuntimeException e) {
            h.rollbackToSavepoint(name);
            return new Attempt<>(null, e);
        }
        h.releaseSavepoint(name);
        return new Attempt<>(result, null);
    }
}
