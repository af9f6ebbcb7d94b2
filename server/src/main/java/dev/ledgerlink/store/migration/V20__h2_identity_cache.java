package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * H2 only: every identity column hands out ids from a cache of 1,000 instead of H2's 32. When its
 * cache runs out, H2 writes the sequence's new high mark in a commit of its own, which with durable
 * commits (WRITE_DELAY=0) is one more chunk written to the file: with 32, a publish fanned out to
 * eight callbacks paid one such commit every fourth event for its deliveries and another for their
 * attempts (docs/benchmarks-history.md, "Deliveries without a claim pass"). A crash skips at most the ids left in the cache (never hands one
 * out twice: the high mark is durable before any id under it is used); ids were never gap-free.
 *
 * <p>Not on PostgreSQL, where a sequence's cache is per connection and would hand out ids out of
 * order across connections, and where taking a value costs no commit anyway. A Java migration
 * because the SQL migrations are shared by both databases.
 */
public final class V20__h2_identity_cache extends BaseJavaMigration {
    static final int CACHE = 1_000;

    @Override
    public void migrate(Context context) throws Exception {
        applyTo(context.getConnection());
    }

    /** Sets the cache of every identity column (on H2; nothing on PostgreSQL): tables made by later migrations call it again. */
    static void applyTo(Connection c) throws java.sql.SQLException {
        if (!c.getMetaData().getDatabaseProductName().toLowerCase().contains("h2")) return;
        List<String> alters = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     select table_name, column_name from information_schema.columns
                     where table_schema = current_schema and is_identity = 'YES'
                     order by table_name""")) {
            while (rs.next()) {
                alters.add("alter table \"" + rs.getString(1) + "\" alter column \"" + rs.getString(2) + "\" set cache " + CACHE);
            }
        }
        try (Statement s = c.createStatement()) {
            for (String alter : alters) s.execute(alter);
        }
    }
}
