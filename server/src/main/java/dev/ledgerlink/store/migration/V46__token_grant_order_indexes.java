package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A grant's tokens in the order they were issued: an index on (grant_id, id) of each token table
 * (issue 45; docs/sizing.md, "Plans"). The console's grants page counts at most a thousand of the
 * newest tokens of each listed pair's grant (oauth.Grants.summaries): along this index that is a
 * bounded range, where the index on grant_id alone made it read every token of the grant (over 30 s
 * on H2 for a page of chains refreshed ten thousand times).
 * <ul>
 *   <li>PostgreSQL: the new index replaces the one on grant_id alone, so a token insert maintains as
 *   many indexes as before, and the previous release's statements by grant_id use it as they used the
 *   old one. Each create holds its table's write lock while it builds (UPGRADE.md).</li>
 *   <li>H2: added beside the one on grant_id, which is the foreign key's own: H2 wants a key's index over
 *   exactly its columns (V24) and cannot take this one for it.</li>
 * </ul>
 * Each step checks whether it is done, so a start cut off in the middle (H2's DDL commits at once)
 * finishes the rest.
 */
public final class V46__token_grant_order_indexes extends BaseJavaMigration {
    static final List<String> TABLES = List.of("oauth_refresh_tokens", "oauth_access_tokens");

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        boolean h2 = SchemaQueries.isH2(c);
        for (String table : TABLES) {
            SchemaQueries.execute(c, "create index if not exists " + table + "_grant_order on " + table + " (grant_id, id)");
            if (!h2) SchemaQueries.execute(c, "drop index if exists " + table + "_grant");
        }
    }
}
