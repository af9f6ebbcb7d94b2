package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ledgerlink.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The first row written at or after an instant, found by a binary search of the primary key (what
 * retention reads up to, where the operators' search of deliveries starts and ends): on a table whose
 * rows were written a minute apart, with gaps in the ids as deletes leave them.
 */
class WrittenOrderTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static Database db;

    @BeforeAll
    static void rows() {
        var t = TestDatabases.fresh();
        db = Database.open(t.url(), t.user(), t.password(), 2, null);
        db.jdbi().useHandle(h -> {
            var batch = h.prepareBatch("insert into oauth_login_failures (id, throttle_key, failed_at) values (:id, 'k', :at)");
            // ids 10, 20, ... 10,000: row i written i minutes after T0
            for (int i = 1; i <= 1000; i++) batch.bind("id", i * 10L).bind("at", T0.plus(Duration.ofMinutes(i))).add();
            batch.execute();
        });
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static long horizon(Instant bound) {
        return db.jdbi().withHandle(h -> WrittenOrder.firstIdAtOrAfter(h, "oauth_login_failures", "failed_at", bound));
    }

    @Test
    void theHorizonIsTheFirstRowWrittenAtOrAfterTheBound() {
        assertEquals(5000, horizon(T0.plus(Duration.ofMinutes(500))), "row 500 (id 5,000) was written at the bound");
        assertEquals(5010, horizon(T0.plus(Duration.ofMinutes(500)).plusSeconds(1)), "the rows up to id 5,000 were written before it");
        assertEquals(10, horizon(T0), "every row was written after it: none is read");
        assertEquals(10_001, horizon(T0.plus(Duration.ofDays(30))), "every row was written before it: all are read");
    }

    @Test
    void anEmptyTableHasNothingToRead() {
        assertEquals(0, (long) db.jdbi().withHandle(h -> WrittenOrder.firstIdAtOrAfter(h, "operator_notifications", "created_at", T0)));
    }
}
