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
        String plan = plan(h, sql, bind, "enable_sort", "enable_seqscan");
        if (TestDatabases.postgres()) assertFalse(plan.contains("Sort"), "sorted instead of read in index order:\n" + plan);
        else assertTrue(plan.contains("/* index sorted */"), "sorted instead of read in index order:\n" + plan);
    }

    /**
     * The statement, with its parameters bound by {@code bind}, reads {@code table} through the index
     * named {@code h2Index} on H2 or {@code postgresIndex} on PostgreSQL (a prefix of the name is
     * enough: H2 names its primary keys PRIMARY_KEY_...), and does not scan it; on PostgreSQL with
     * scans priced out of reach ({@code enable_seqscan} off), so a tiny test table plans as a large one.
     */
    public static void assertFoundThrough(Handle h, String sql, String table, String h2Index, String postgresIndex, UnaryOperator<Query> bind) {
        boolean postgres = TestDatabases.postgres();
        String plan = plan(h, sql, bind, "enable_seqscan");
        assertFalse(plan.contains(postgres ? "Seq Scan on " + table : "." + table + ".tableScan"), table + " scanned:\n" + plan);
        boolean through = postgres ? plan.contains("using " + postgresIndex + " on " + table) || plan.contains("Index Scan on " + postgresIndex)
                : plan.contains("public." + h2Index);
        assertTrue(through, table + " not read through " + (postgres ? postgresIndex : h2Index) + ":\n" + plan);
    }

    /** The EXPLAIN of the statement; on PostgreSQL with these planner settings off while it is planned. */
    private static String plan(Handle h, String sql, UnaryOperator<Query> bind, String... postgresOff) {
        boolean postgres = TestDatabases.postgres();
        if (postgres) for (String setting : postgresOff) h.execute("set " + setting + " = off");
        try {
            return bind.apply(h.createQuery("explain " + sql)).mapTo(String.class).stream().collect(Collectors.joining("\n"));
        } finally {
            if (postgres) for (String setting : postgresOff) h.execute("reset " + setting);
        }
    }
}
