package dev.ledgerlink.store;

import java.sql.SQLException;

/** Recognises database constraint failures the same way on H2 and PostgreSQL (SQLSTATE class 23). */
public final class Constraints {
    private Constraints() {}

    /** True when {@code e} (or a cause) is a unique-key violation (SQLSTATE 23505 on both databases). */
    public static boolean isUniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && "23505".equals(sql.getSQLState())) return true;
        }
        return false;
    }
}
