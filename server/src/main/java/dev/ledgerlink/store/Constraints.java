package dev.ledgerlink.store;

import dev.ledgerlink.errors.Causes;
import java.util.Set;

/** Recognises database constraint failures the same way on H2 and PostgreSQL (SQLSTATE class 23). */
public final class Constraints {
    private static final Set<String> UNIQUE_VIOLATION = Set.of("23505");

    private Constraints() {}

    /** True when {@code e} (or a cause) is a unique-key violation (SQLSTATE 23505 on both databases). */
    public static boolean isUniqueViolation(Throwable e) {
        return Causes.hasSqlState(e, UNIQUE_VIOLATION);
    }
}
