package dev.ledgerlink.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Finding rows by when they were written without an index on the time: the tables that grow with use
 * (tokens, deliveries, attempts, events, ...) give out ids in the order their rows are written, so the
 * rows written from an instant on are an id range, and that range's first id is found by a binary search
 * of the primary key, some sixty probes for a billion rows. Retention reads a table only up to the first
 * row written after its cutoff; the operators' search of deliveries queued in a time window reads only
 * that window's ids. Either keeps its exact condition on the time beside the range.
 *
 * <p>The order is that of writing up to {@link #OUT_OF_ORDER}: a transaction that writes a row takes
 * its id and its time within milliseconds, and every node reads the database's clock (docs/architecture.md,
 * "Time"). A caller widens its range by that margin. Should a row's time run backwards against its id
 * (a development sandbox's clock moved back), a range found this way may leave rows out; callers use
 * it only where that is harmless (a row retention reads later, not wrongly).
 */
public final class WrittenOrder {
    /** How far a row's id may be out of the order of its written time; ranges are widened by it. */
    public static final Duration OUT_OF_ORDER = Duration.ofMinutes(15);

    private WrittenOrder() {}

    /**
     * The id of the first row of {@code table} whose {@code column} (when it was written, never null) is
     * at or after {@code instant}; the id after the last row when every row was written before; 0 for an
     * empty table.
     */
    public static long firstIdAtOrAfter(Handle h, String table, String column, Instant instant) {
        Long last = h.createQuery("select max(id) from " + table).mapTo(Long.class).findOne().orElse(null);
        if (last == null) return 0;
        long lo = h.createQuery("select min(id) from " + table).mapTo(Long.class).one();
        long hi = last + 1;
        String probe = "select id, " + column + " from " + table + " where id >= :from order by id limit 1";
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            var row = h.createQuery(probe).bind("from", mid)
                    .map((rs, ctx) -> Map.entry(rs.getLong(1), TimeMapping.read(rs, 2))).findOne();
            if (row.isPresent() && row.get().getKey() < hi && row.get().getValue().isBefore(instant)) {
                lo = row.get().getKey() + 1;
            } else {
                hi = mid;   // no row in [mid, that row's id): the first one at or after instant is before mid, or is that row
            }
        }
        // lo may fall in a gap of the ids (rows deleted): the row that starts it, so the answer names a row
        long from = lo;
        return h.createQuery("select min(id) from " + table + " where id >= :from").bind("from", from).mapTo(Long.class)
                .findOne().orElse(last + 1);
    }
}
