package dev.ledgerlink.retention;

import java.time.Duration;
import java.time.Instant;

/**
 * One table's deletion rule: the rows of {@code table} matching {@code where} (a WHERE clause that
 * binds {@code :cutoff}, written in the capability that owns the table) are removed, the cutoff being
 * now minus {@code keep}. Every table named here has a bigint primary key {@code id}.
 */
public record RetentionRule(String name, String table, String where, Duration keep) {

    public Instant cutoff(Instant now) {
        return now.minus(keep);
    }

    /** Ids of due rows after {@code :after}, in id order, at most {@code :limit}: keyset paging, so a pass reads each row once. */
    String candidatesSql() {
        return "select id from " + table + " where id > :after and (" + where + ") order by id limit :limit";
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
