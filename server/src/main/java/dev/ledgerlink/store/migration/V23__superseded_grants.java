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
 * A newer authorization of a (user, application) supersedes the older grant as a whole
 * (oauth_grants.superseded_at), instead of marking its live refresh token: a refresh token is live
 * while it and its grant are (oauth/TokenService). Superseding is then one update of a grant row per
 * authorization, and nothing a refresh grant writes is in any index but the new rows' own:
 * oauth_refresh_tokens_live (V5), which every rotation had to update twice (the used token's entry
 * moved, the successor's added, each at the pair's own place in the index), goes. On PostgreSQL the
 * used token's update then changes no indexed column and can be a heap-only update (no index entry
 * at all) when its page has room: the table keeps half of each page free for that, since each
 * row is updated once, soon after it is written (docs/benchmarks-history.md, "Superseding grants, not tokens").
 *
 * <p>Tokens superseded before this migration keep their own superseded_at (still read); every grant
 * with a newer grant of its pair is marked superseded when that newer grant was created. Each step
 * can run again (on H2, DDL commits at once).
 */
public final class V23__superseded_grants extends BaseJavaMigration {
    /** Grants per transaction on H2. */
    static final int PAGE = 10_000;

    /** One step of the migration, run on the migration's connection. */
    interface Step {
        void run(Connection c) throws SQLException;
    }

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        for (Step step : steps(SchemaQueries.isH2(c), PAGE)) step.run(c);
    }

    /** The steps in order; each can run again after any of them was cut off (MigrationsTest runs them so). */
    static List<Step> steps(boolean h2, int page) {
        List<Step> steps = new ArrayList<>();
        steps.add(sql("alter table oauth_grants add column if not exists superseded_at timestamp with time zone"));
        // Each grant with a later one of its pair: superseded when the next one was created. One pass
        // over the table (a window over each pair), not a look at the pair's later grants per grant,
        // which would be quadratic in a pair's authorizations. H2 holds a window's rows in the heap,
        // all of them at once: a million grants did not fit in the launcher's 96 MiB, so on H2 the
        // window runs over a page of grants at a time.
        steps.add(h2 ? c -> supersedeInPages(c, page) : sql("""
                merge into oauth_grants g
                using (select id, lead(created_at) over (partition by user_id, application_id order by id) as next_created_at
                       from oauth_grants) n
                on g.id = n.id and n.next_created_at is not null and g.superseded_at is null
                when matched then update set superseded_at = n.next_created_at"""));
        steps.add(sql("drop index if exists oauth_refresh_tokens_live"));
        if (!h2) {
            // Applies to pages written from now on; existing full pages simply take no heap-only updates.
            steps.add(sql("alter table oauth_refresh_tokens set (fillfactor = 50)"));
        }
        return steps;
    }

    private static Step sql(String statement) {
        return c -> SchemaQueries.execute(c, statement);
    }

    /** The next page: ids from :from up to (not including) the id it returns, or null past the last grant. */
    private static final String PAGE_END = """
            select max(id) + 1 from (select id from oauth_grants where id >= ? order by id limit ?) p""";

    /** Grants whose next grant of the pair is on the same page. */
    private static final String WITHIN_PAGE = """
            merge into oauth_grants g
            using (select id, lead(created_at) over (partition by user_id, application_id order by id) as next_created_at
                   from oauth_grants where id >= ? and id < ?) n
            on g.id = n.id and n.next_created_at is not null and g.superseded_at is null
            when matched then update set superseded_at = n.next_created_at""";

    /**
     * The page's last grant of each pair, when the pair has a grant on a later page: the first of those.
     * Ordered by all three columns of {@link #PAIR_AND_ID} so that H2 reads the first entry from the
     * index; ordered by id alone, it sorted every later grant of the pair for each lookup.
     */
    private static final String ACROSS_PAGES = """
            update oauth_grants g
            set superseded_at = (select n.created_at from oauth_grants n
                                 where n.user_id = g.user_id and n.application_id = g.application_id and n.id >= ?
                                 order by n.user_id, n.application_id, n.id limit 1)
            where g.id >= ? and g.id < ? and g.superseded_at is null
              and exists (select 1 from oauth_grants n
                          where n.user_id = g.user_id and n.application_id = g.application_id and n.id >= ?)""";

    /**
     * The same marks as the one merge, a page of grants per transaction, in id order. A page cut off
     * leaves nothing of it; pages already done are only read again ({@code superseded_at is null}).
     */
    static void supersedeInPages(Connection c, int page) throws SQLException {
        // ACROSS_PAGES looks up "the pair's first grant from this id on": oauth_grants_pair ends at the
        // pair, so without the id in an index each lookup reads all the pair's grants: quadratic in a
        // pair's grants.
        SchemaQueries.execute(c, "create index if not exists " + PAIR_AND_ID + " on oauth_grants (user_id, application_id, id)");
        supersedePages(c, page);
        SchemaQueries.execute(c, "drop index if exists " + PAIR_AND_ID);
    }

    /** An index only for the length of the step. */
    private static final String PAIR_AND_ID = "v23_oauth_grants_pair_id";

    private static void supersedePages(Connection c, int page) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement end = c.prepareStatement(PAGE_END);
             PreparedStatement within = c.prepareStatement(WITHIN_PAGE);
             PreparedStatement across = c.prepareStatement(ACROSS_PAGES)) {
            long from = Long.MIN_VALUE;
            while (true) {
                end.setLong(1, from);
                end.setInt(2, page);
                long to;
                try (ResultSet rs = end.executeQuery()) {
                    rs.next();
                    to = rs.getLong(1);
                    if (rs.wasNull()) break;
                }
                within.setLong(1, from);
                within.setLong(2, to);
                within.executeUpdate();
                across.setLong(1, to);
                across.setLong(2, from);
                across.setLong(3, to);
                across.setLong(4, to);
                across.executeUpdate();
                c.commit();
                from = to;
            }
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}
