package dev.ledgerlink.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * What the database plans for a statement, asked with EXPLAIN: whether it reads rows in the order of
 * an index instead of sorting them all, which decides what a "first N by ..." query costs on a table
 * of millions.
 */
public final class QueryPlans {
    private QueryPlans() {}

    /**
     * The statement, with its parameters bound by {@code bind}, is answered in an index's order: H2
     * says "index sorted" (all the ORDER BY columns); PostgreSQL, with sorting priced out of reach
     * ({@code enable_sort} off), still plans no sort.
     */
    public static void assertReadInIndexOrder(Handle h, String sql, UnaryOperator<Query> bind) {
        boolean postgres = TestDatabases.postgres();
        if (postgres) {
            h.execute("set enable_sort = off");
            h.execute("set enable_seqscan = off");
        }
        try {
            String plan = bind.apply(h.createQuery("explain " + sql)).mapTo(String.class).stream().collect(Collectors.joining("\n"));
            if (postgres) assertFalse(plan.contains("Sort"), "sorted instead of read in index order:\n" + plan);
            else assertTrue(plan.contains("/* index sorted */"), "sorted instead of read in index order:\n" + plan);
        } finally {
            if (postgres) {
                h.execute("reset enable_sort");
                h.execute("reset enable_seqscan");
            }
        }
    }
}
