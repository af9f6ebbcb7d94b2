package dev.ledgerlink.store;

/**
 * H2 picks an index by rule, not by cost: given a condition on the leading columns of an index, it
 * reads through that index even when another access is far cheaper (a primary-key look-up or range
 * that stops at a limit), reading every row the index matches. Written as one CASE expression, the
 * same condition gives H2 no index to pick, and it is checked on each row the rest of the statement
 * reads. PostgreSQL plans by cost and needs none of this; where it runs the statement too, the CASE
 * only costs it its estimates.
 */
public final class H2IndexChoice {
    private H2IndexChoice() {}

    /** {@code condition}, true on the same rows, as an expression no index can serve. */
    public static String withoutIndex(String condition) {
        return "(case when (" + condition + ") then 1 else 0 end) = 1";
    }
}
