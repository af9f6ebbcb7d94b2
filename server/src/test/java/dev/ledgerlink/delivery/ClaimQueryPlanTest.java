package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.QueryPlans;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim takes the first due deliveries in the order of deliveries_due, read from the index: an H2
 * claim that sorted them instead cost a pass more the larger the backlog (docs/benchmarks-history.md,
 * "Indexes H2 kept twice, and claims and sweeps that sorted"). What it took is read back by key.
 */
@LedgerlinkTest
class ClaimQueryPlanTest {
    TestServer server;

    @Test
    void dueDeliveriesAreClaimedInIndexOrderWithoutSortingTheBacklog() {
        boolean postgres = TestDatabases.postgres();
        server.services().database().jdbi().useHandle(h -> QueryPlans.assertReadInIndexOrder(h,
                postgres ? DeliveryStore.CLAIM_POSTGRES : DeliveryStore.CANDIDATES, q -> {
                    q.defineList("busy", List.of(-1L, 7L)).defineList("ordered", List.of(3L)).bind("now", Instant.now()).bind("limit", 100);
                    return postgres ? q.bind("token", "plan").bind("leaseUntil", Instant.now()) : q;
                }));
    }
    /**
     * What a claim or a publish leased is read back by the rows' ids or their event (there is no index
     * on the lease owner: on H2 its random keys cost every claim and outcome pages all over it). On
     * PostgreSQL the publish's insert returns its rows, and their callbacks are read by key.
     */
    @Test
    void leasedRowsAreReadBackThroughAKeyNotByScanningDeliveries() {
        server.services().database().jdbi().useHandle(h -> {
            QueryPlans.assertFoundThrough(h, DeliveryStore.LOAD_CLAIMED, "deliveries", "PRIMARY_KEY_", "deliveries_pkey",
                    q -> q.bind("token", "plan").bindList("ids", List.of(3L, 5L, 8L)));
            if (TestDatabases.postgres()) {
                Instant now = Instant.now();
                QueryPlans.assertFoundThrough(h, DeliveryStore.FAN_OUT_LEASED_RETURNING.text(), "callbacks", "-", "callbacks_pkey",
                        q -> q.bind("eventId", 3L).bind("leaseUntil", now).bind("now", now).bind("token", "plan")
                                .bind("accountId", "acct").bind("name", "invoice.create").bind("noun", "invoice"));
            } else {
                QueryPlans.assertFoundThrough(h, DeliveryStore.LOAD_PUBLISHED.text(), "deliveries", "deliveries_event", "-",
                        q -> q.bind("eventId", 3L).bind("token", "plan"));
            }
        });
    }
}
