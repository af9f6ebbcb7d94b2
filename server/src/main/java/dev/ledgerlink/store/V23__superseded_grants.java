package dev.ledgerlink.store;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A newer authorization of a (user, application) supersedes the older grant as a whole
 * (oauth_grants.superseded_at), instead of marking its live refresh token: a refresh token is live
 * while it and its grant are (oauth/TokenService). Superseding is then one update of a grant row per
 * authorization, and nothing a refresh grant writes is in any index but the new rows' own:
 * oauth_refresh_tokens_live (V5), which every rotation had to update twice (the used token's entry
 * moved, the successor's added, each at the pair's own place in the index), goes. On PostgreSQL the
 * used token's update then changes no indexed column and can be a heap-only update (no index entry
 * at all) when its page has room: the table keeps half of each page free for that, since each
 * row is updated once, soon after it is written (docs/BENCHMARKS.md, "Superseding grants, not tokens").
 *
 * <p>Tokens superseded before this migration keep their own superseded_at (still read); every grant
 * with a newer grant of its pair is marked superseded when that newer grant was created. Each step
 * can run again (on H2, DDL commits at once).
 */
public final class V23__superseded_grants extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        for (String step : steps(SchemaQueries.isH2(c))) SchemaQueries.execute(c, step);
    }

    /** The statements in order; each can run again after any of them was cut off (DatabaseTest runs them so). */
    static List<String> steps(boolean h2) {
        List<String> steps = new ArrayList<>();
        steps.add("alter table oauth_grants add column if not exists superseded_at timestamp with time zone");
        // Each grant with a later one of its pair: superseded when the next one was created. One pass
        // over the table (a window over each pair), not a look at the pair's later grants per grant,
        // which would be quadratic in a pair's authorizations.
        steps.add("""
                merge into oauth_grants g
                using (select id, lead(created_at) over (partition by user_id, application_id order by id) as next_created_at
                       from oauth_grants) n
                on g.id = n.id and n.next_created_at is not null and g.superseded_at is null
                when matched then update set superseded_at = n.next_created_at""");
        steps.add("drop index if exists oauth_refresh_tokens_live");
        if (!h2) {
            // Applies to pages written from now on; existing full pages simply take no heap-only updates.
            steps.add("alter table oauth_refresh_tokens set (fillfactor = 50)");
        }
        return steps;
    }
}
