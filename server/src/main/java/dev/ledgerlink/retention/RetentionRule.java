package dev.ledgerlink.retention;

import dev.ledgerlink.store.H2IndexChoice;
import dev.ledgerlink.store.WrittenOrder;
import java.time.Duration;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * One table's deletion rule: the rows of {@code table} matching {@code where} (a WHERE clause that
 * binds {@code :cutoff}, written in the capability that owns the table) are removed, the cutoff being
 * now minus {@code keep}. Every table named here has a bigint primary key {@code id}, given out in the
 * order rows are written, and a column {@code written}, when its row was written.
 *
 * <p>No rule removes a row written after its cutoff: every time a rule compares with the cutoff (a
 * token used, expired or revoked, a delivery finished, an attempt's delivery finished, a grant
 * superseded, an event or grant made) comes at or after the row was written. So a pass reads a table
 * only up to the first row written after the cutoff ({@link #horizon}, found by a binary search of the
 * primary key, store/WrittenOrder, with its margin for rows written out of id order) instead of to its end:
 * a pass costs what is due, not what is kept (docs/sizing.md, "Retention").
 */
public record RetentionRule(String name, String table, String where, Duration keep, String written) {
    public Instant cutoff(Instant now) {
        return now.minus(keep);
    }

    /**
     * Ids of due rows after {@code :after}, in id order, at most {@code :limit}: keyset paging, so a
     * pass reads each row once. On H2 the rule gives H2 no index to pick ({@link H2IndexChoice}), so
     * that H2 reads the primary key from {@code :after} on and stops at {@code :limit}: given the rule
     * itself, H2 took any index its columns start (deliveries_due for the state of a delivery), read
     * every row the index matched and sorted them by id, for each page, so a page's cost grew with the
     * table (docs/benchmarks-history.md, "Indexes H2 kept twice, and claims and sweeps that sorted").
     * PostgreSQL's planner already reads the key.
     */
    String candidatesSql(boolean h2) {
        String due = h2 ? H2IndexChoice.withoutIndex(where) : "(" + where + ")";
        return "select id from " + table + " where id > :after and id < :horizon and " + due + " order by id limit :limit";
    }

    /** The first id written at or after {@code bound} (the cutoff and the margin): no row from there on is due. */
    long horizon(Handle h, Instant bound) {
        return WrittenOrder.firstIdAtOrAfter(h, table, written, bound);
    }

    /** The rule is checked again as the rows are deleted: a row that stopped being due meanwhile stays. */
    String deleteSql() {
        return "delete from " + table + " where id in (<ids>) and (" + where + ")";
    }

    /** Every due row at once: only for the dry run, which rolls it back. */
    String deleteAllSql() {
        return "delete from " + table + " where " + where;
    }
}
