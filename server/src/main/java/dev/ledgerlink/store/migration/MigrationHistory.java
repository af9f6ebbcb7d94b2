package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The one renumbering of the migrations before 0.1 (docs/architecture.md, "Numbering rule"): V21 and
 * V30 became V5 and V6, their content unchanged. A database migrated before that still records the
 * old versions; they are rewritten here, before Flyway validates, so a development database keeps
 * working. Nothing to do on a new database or one already renumbered. A row is matched by its old
 * version and its old script: version 21 has been a different migration since (V21__binary_token_hashes).
 */
public final class MigrationHistory {
    private static final String[][] RENUMBERED = {
            {"21", "V21__oauth_live_refresh_index.sql", "5", "V5__oauth_live_refresh_index.sql"},
            {"30", "V30__callback_verify_throttle.sql", "6", "V6__callback_verify_throttle.sql"},
    };

    private MigrationHistory() {}

    public static void renumberUnreleased(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            if (!hasHistory(c)) return;
            c.setAutoCommit(false);
            try (PreparedStatement st = c.prepareStatement(
                    "update \"flyway_schema_history\" set \"version\" = ?, \"script\" = ? where \"version\" = ? and \"script\" = ?")) {
                for (String[] r : RENUMBERED) {
                    st.setString(1, r[2]);
                    st.setString(2, r[3]);
                    st.setString(3, r[0]);
                    st.setString(4, r[1]);
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
