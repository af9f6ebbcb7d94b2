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

    static boolean isDeadlock(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("40P01".equals(sql.getSQLState()) || "40001".equals(sql.getSQLState()))) return true;
        }
        return false;
    }
}
