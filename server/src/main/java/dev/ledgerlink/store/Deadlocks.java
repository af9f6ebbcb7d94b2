package dev.ledgerlink.store;

import dev.ledgerlink.errors.Causes;
import java.util.Set;

/**
 * Retries a short transaction that the database chose as a deadlock victim. Deleting or disabling a
 * callback locks its row and then its deliveries (by the cascade, or by dropping them), while the
 * delivery engine records outcomes in the other order: PostgreSQL (40P01) and H2 (40001) then abort
 * one side, which is safe to repeat.
 */
public final class Deadlocks {
    private static final int ATTEMPTS = 5;
    /** A deadlock victim or serialization failure: PostgreSQL 40P01, H2 (and the standard) 40001. */
    private static final Set<String> DEADLOCKS = Set.of("40001", "40P01");
    /** The deadlocks, plus a lock not had in time, H2's concurrent update, a unique key taken meanwhile. */
    private static final Set<String> CONFLICTS = Set.of("40001", "40P01", "55P03", "HYT00", "90131", "23505");

    private Deadlocks() {}

    public static void retry(Runnable transaction) {
        retry(() -> {
            transaction.run();
            return null;
        });
    }

    /** As {@link #retry(Runnable)}, for a transaction with a result. */
    public static <T> T retry(java.util.function.Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !isDeadlock(e)) throw e;
                try {
                    Thread.sleep(10L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * True when {@code e} (or a cause) says two transactions wanted the same rows at once, so the
     * loser may simply try again later: a deadlock victim or serialization failure (40001, 40P01),
     * a lock not had in time (PostgreSQL 55P03, H2 HYT00), H2's concurrent update of a row (90131),
     * or a unique key another transaction took meanwhile (23505). Anything else is a real failure.
     */
    public static boolean isConflict(Throwable e) {
        return Causes.hasSqlState(e, CONFLICTS);
    }

    static boolean isDeadlock(Throwable e) {
        return Causes.hasSqlState(e, DEADLOCKS);
    }

}
