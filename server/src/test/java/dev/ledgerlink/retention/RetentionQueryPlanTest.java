package dev.ledgerlink.retention;

import dev.ledgerlink.config.Settings;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.QueryPlans;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Each page of a sweep reads its table in id order from where the last page ended and stops at the
 * batch size, whatever the rule: on H2, a rule over the columns of an index (a delivery's state) made
 * H2 read every row that index matched and sort them, for each page (1.2-1.7 s a page with a million
 * finished deliveries).
 */
@LedgerlinkTest
class RetentionQueryPlanTest {
    TestServer server;

    @Test
    void everyRuleIsSweptInIdOrderWithoutSortingItsDueRows() {
        boolean h2 = !TestDatabases.postgres();
        server.services().database().jdbi().useHandle(h -> {
            for (RetentionRule rule : RetentionRules.of(Settings.defaults())) {
                QueryPlans.assertReadInIndexOrder(h, rule.candidatesSql(h2),
                        q -> q.bind("after", 0L).bind("horizon", Long.MAX_VALUE).bind("cutoff", Instant.now()).bind("limit", 500));
            }
        });
    }
}
