package dev.ledgerlink.store;

import java.sql.SQLException;

/**
 * Retries a short transaction that the database chose as a deadlock victim. Deleting a callback
 * locks its row and then, by the cascade, its deliveries, while the delivery engine records outcomes
 * in the other order: PostgreSQL (40P01) and H2 (40001) then abort one side, which is safe to repeat.
 */
public final class Deadlocks {
    private static final int ATTEMPTS = 5;

    private Deadlocks() {}

    public static void retry(Runnable transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                transaction.run();
                return;
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
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && CONFLICTS.contains(sql.getSQLState())) return true;
        }
        return false;
    }

    private static final java.util.Set<String> CONFLICTS = java.util.Set.of("40001", "40P01", "55P03", "HYT00", "90131", "23505");

    static boolean isDeadlock(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("40P01".equals(sql.getSQLState()) || "40001".equals(sql.getSQLState()))) return true;
        }
        return false;
    }
}
