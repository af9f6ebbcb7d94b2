package dev.ledgerlink.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * A database restored from a backup lacks what was committed after the backup was taken, and its id
 * counters stand where they stood then: left so, it would hand out again the ids of events, deliveries
 * and callbacks that clients and receivers already saw (a receiver de-duplicating on webhook-id would
 * drop a new message as one it had). So a restore moves every identity column's counter past its
 * highest id by a margin for what the lost time may have handed out, records the restore, and the first
 * server to start on the database says so in its log (docs/operations.md, "Backup and restore").
 */
public final class Restores {
    /** Ids a busy node hands out per second at most, per table, with room to spare: the margin's rate. */
    static final long IDS_PER_SECOND = 10_000;
    /** The smallest margin, however recent the backup. */
    static final long MIN_MARGIN = 1_000_000;

    private Restores() {}

    /** One recorded restore. */
    public record Restore(Instant restoredAt, Instant backupPoint, String source, long idsAdvancedBy) {
        public String describe() {
            return "restored at " + restoredAt + " from " + source + " (backup taken at " + backupPoint + "; what was committed after it is not "
                    + "in it); every id counter moved " + idsAdvancedBy + " past its highest id";
        }
    }

    /** How far the id counters move for a backup taken {@code backupPoint}, restored {@code now}. */
    static long margin(Instant backupPoint, Instant now) {
        long seconds = Math.max(0, Duration.between(backupPoint, now).toSeconds());
        return Math.max(MIN_MARGIN, Math.multiplyExact(seconds, IDS_PER_SECOND));
    }

    /**
     * Records that {@code database} was restored from {@code source}, a backup taken at {@code backupPoint}
     * (null: the newest event's time, the latest it can have been taken): every identity counter moved
     * past its highest id by {@link #margin}. Needs the right to change the schema (the migrating user).
     */
    public static Restore mark(Database database, String source, Instant backupPoint, Instant now) {
        return database.jdbi().inTransaction(h -> {
            Instant point = backupPoint != null ? backupPoint
                    : h.createQuery("select max(created_at) from events").mapTo(Instant.class).findOne().orElse(now);
            if (point == null) point = now;
            long margin = margin(point, now);
            for (Identity id : identities(h)) {
                long highest = h.createQuery("select coalesce(max(" + id.column() + "), 0) from " + id.table()).mapTo(Long.class).one();
                h.execute("alter table " + id.table() + " alter column " + id.column() + " restart with " + Math.addExact(highest, margin));
            }
            h.createUpdate("insert into database_restores (restored_at, backup_point, source, ids_advanced_by) values (:now, :point, :source, :margin)")
                    .bind("now", now).bind("point", point).bind("source", source.length() > 1000 ? source.substring(0, 1000) : source)
                    .bind("margin", margin).execute();
            return new Restore(now, point, source, margin);
        });
    }

    /** The restore no server has announced yet, marked announced by this call (so one server says it). */
    public static Optional<Restore> announce(Database database, Instant now) {
        return database.jdbi().inTransaction(h -> {
            Optional<Restore> pending = h.createQuery("""
                            select restored_at, backup_point, source, ids_advanced_by from database_restores
                            where announced_at is null order by restored_at desc fetch first 1 rows only""")
                    .map((rs, ctx) -> new Restore(TimeMapping.read(rs, "restored_at"), TimeMapping.read(rs, "backup_point"),
                            rs.getString("source"), rs.getLong("ids_advanced_by"))).findOne();
            if (pending.isEmpty()) return Optional.empty();
            int claimed = h.createUpdate("update database_restores set announced_at = :now where announced_at is null").bind("now", now).execute();
            return claimed > 0 ? pending : Optional.empty();
        });
    }

    /** The restores recorded, newest first (db status). */
    public static List<Restore> all(Database database) {
        return database.jdbi().withHandle(h -> h.createQuery("select restored_at, backup_point, source, ids_advanced_by from database_restores order by restored_at desc")
                .map((rs, ctx) -> new Restore(TimeMapping.read(rs, "restored_at"), TimeMapping.read(rs, "backup_point"),
                        rs.getString("source"), rs.getLong("ids_advanced_by"))).list());
    }

    private record Identity(String table, String column) {}

    /** Every identity column of this schema. */
    private static List<Identity> identities(Handle h) {
        return h.createQuery("""
                        select lower(table_name) as t, lower(column_name) as c from information_schema.columns
                        where lower(table_schema) = lower(current_schema()) and is_identity = 'YES' order by 1""")
                .map((rs, ctx) -> new Identity(rs.getString("t"), rs.getString("c"))).list();
    }
}
