package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Keeps the migration history of a database made by an earlier build naming the migrations as they
 * are named now, before Flyway reads it. Each rewrite matches a row by its old version and its old
 * script, so it changes nothing on a new database or one already rewritten, and runs at every open.
 *
 * <ul>
 *   <li>The one renumbering before 0.1 (docs/architecture.md, "Numbering rule"): V21 and V30 became
 *   V5 and V6, their content unchanged. Version 21 has been a different migration since
 *   (V21__binary_token_hashes), hence the match on the script too.</li>
 *   <li>The Java migrations' move from dev.ledgerlink.store to this package: Flyway records a Java
 *   migration's class name as its script. Flyway 13 does not compare that name when it validates, so
 *   such a database would open anyway; the rows are rewritten so that the history names classes that
 *   exist, whatever a later Flyway checks.</li>
 * </ul>
 */
public final class MigrationHistory {
    private record Rewrite(String oldVersion, String oldScript, String version, String script) {}

    private static final String OLD_PACKAGE = "dev.ledgerlink.store.";

    private static final List<Rewrite> REWRITES = List.of(
            new Rewrite("21", "V21__oauth_live_refresh_index.sql", "5", "V5__oauth_live_refresh_index.sql"),
            new Rewrite("30", "V30__callback_verify_throttle.sql", "6", "V6__callback_verify_throttle.sql"),
            moved("20", V20__h2_identity_cache.class),
            moved("21", V21__binary_token_hashes.class),
            moved("22", V22__token_selectors.class),
            moved("23", V23__superseded_grants.class),
            moved("24", V24__h2_foreign_key_indexes.class));

    private static Rewrite moved(String version, Class<?> migration) {
        return new Rewrite(version, OLD_PACKAGE + migration.getSimpleName(), version, migration.getName());
    }

    private MigrationHistory() {}

    /** Rewrites, in one transaction, the rows that name a migration by an old version or an old class name. */
    public static void rewriteOldNames(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            if (!hasHistory(c)) return;
            c.setAutoCommit(false);
            try (PreparedStatement st = c.prepareStatement(
                    "update \"flyway_schema_history\" set \"version\" = ?, \"script\" = ? where \"version\" = ? and \"script\" = ?")) {
                for (Rewrite r : REWRITES) {
                    st.setString(1, r.version());
                    st.setString(2, r.script());
                    st.setString(3, r.oldVersion());
                    st.setString(4, r.oldScript());
                    st.executeUpdate();
                }
            }
            c.commit();
        }
    }

    private static boolean hasHistory(Connection c) throws SQLException {
        try (var rs = c.getMetaData().getTables(null, c.getSchema(), "flyway_schema_history", null)) {
            return rs.next();
        }
    }
}
