package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * H2 only: no column indexed twice. H2 gives every foreign key an index over exactly its columns:
 * one of its own ({@code CONSTRAINT_INDEX_...}) when the key is declared before such an index exists,
 * as it was for the keys declared with their tables. So some columns had two indexes, and every
 * insert into {@code deliveries} and {@code delivery_attempts} wrote entries into indexes nothing
 * needed, each written again by every durable commit that changed its pages
 * (docs/benchmarks-history.md, "Indexes H2 kept twice").
 * <ul>
 *   <li>A key whose column also has an index of the schema's own, over that column alone: dropped and
 *   declared again, so that H2 takes the schema's index for it and drops its own.</li>
 *   <li>An index of the schema's own over the key's column and the row id ({@code deliveries_callback},
 *   {@code delivery_attempts_delivery}): H2 cannot take it for the key (it wants the key's columns
 *   exactly), and its entries are ordered as the key's own index's are anyway (H2 ends every index
 *   entry with the row id), so it is dropped instead.</li>
 * </ul>
 * PostgreSQL makes no index for a foreign key and keeps all of its indexes. Each key is looked up by
 * its table and column, so a start cut off between the drop and the new declaration (H2's DDL commits
 * at once) finds no key and declares it, and one cut off after finds the new name and leaves it.
 */
public final class V24__h2_foreign_key_indexes extends BaseJavaMigration {
    /** A foreign key of one column whose index the schema already has under its own name. */
    record ForeignKey(String table, String column, String references, String index) {
        String name() {
            return table + "_" + column + "_fkey";
        }

        /** NOCHECK: every row was checked by the key this one replaces, and nothing else writes during a migration. */
        String declaration() {
            return "alter table " + table + " add constraint if not exists " + name() + " foreign key (" + column + ") references "
                    + references + " nocheck";
        }
    }

    static final List<ForeignKey> KEYS = List.of(
            new ForeignKey("deliveries", "event_id", "events (id)", "deliveries_event"),
            new ForeignKey("memberships", "user_id", "users (id)", "memberships_user"),
            new ForeignKey("applications", "owner_account_id", "accounts (account_id)", "applications_owner"));

    /** Indexes over a foreign key's column and the row id, beside the key's own index. */
    static final List<String> REDUNDANT = List.of("deliveries_callback", "delivery_attempts_delivery");

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        if (!SchemaQueries.isH2(c)) return;
        for (ForeignKey key : KEYS) {
            for (String name : foreignKeysOn(c, key.table(), key.column())) {
                if (!name.equalsIgnoreCase(key.name())) SchemaQueries.execute(c, "alter table " + key.table() + " drop constraint \"" + name + "\"");
            }
            SchemaQueries.execute(c, key.declaration());
        }
        for (String index : REDUNDANT) SchemaQueries.execute(c, "drop index if exists " + index);
    }

    /** The names of the table's foreign keys that consist of that one column. */
    static List<String> foreignKeysOn(Connection c, String table, String column) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                select tc.constraint_name from information_schema.table_constraints tc
                join information_schema.key_column_usage k
                  on k.constraint_schema = tc.constraint_schema and k.constraint_name = tc.constraint_name
                where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema and lower(tc.table_name) = ?
                group by tc.constraint_name
                having count(*) = 1 and lower(max(k.column_name)) = ?""")) {
            s.setString(1, table);
            s.setString(2, column);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) names.add(rs.getString(1));
            }
        }
        return names;
    }
}
