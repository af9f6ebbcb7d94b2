package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.TestDatabases;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store itself, on whichever database this run of the suite uses. */
class DatabaseTest {
    @Test
    void migrationsRunAndInstantsRoundTripAsUtcOnBothDatabases() {
        var db = TestDatabases.fresh();
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            assertEquals(TestDatabases.postgres() ? Database.Dialect.POSTGRESQL : Database.Dialect.H2, d.dialect());
            Instant t = Instant.parse("2026-11-22T10:15:30.123456Z");
            Instant back = d.jdbi().withHandle(h -> {
                h.createUpdate("insert into accounts (account_id, name, timezone, created_at) values ('ABCDE', 'x', 'UTC', :t)")
                        .bind("t", t).execute();
                return h.createQuery("select created_at from accounts where account_id = 'ABCDE'").mapTo(Instant.class).one();
            });
            assertEquals(t.truncatedTo(ChronoUnit.MICROS), back);
            assertTrue(d.isReachable());
        }
    }

    @Test
    void onH2EveryIdentityColumnTakesIdsFromACacheOfAThousandAndOnPostgresItIsLeftAsItWas() {
        var db = TestDatabases.fresh();
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            String sql = TestDatabases.postgres()
                    ? "select sequencename || '=' || cast(cache_size as varchar) from pg_sequences where schemaname = current_schema"
                    : """
                      select lower(table_name) || '=' || cast(identity_cache as varchar) from information_schema.columns
                      where table_schema = current_schema and is_identity = 'YES'""";
            List<String> caches = d.jdbi().withHandle(h -> h.createQuery(sql).mapTo(String.class).list());
            assertTrue(caches.stream().anyMatch(c -> c.startsWith("deliveries")), caches.toString());
            assertTrue(caches.stream().anyMatch(c -> c.startsWith("delivery_attempts")), caches.toString());
            String expected = "=" + (TestDatabases.postgres() ? 1 : V20__h2_identity_cache.CACHE);
            assertEquals(List.of(), caches.stream().filter(c -> !c.endsWith(expected)).toList());
        }
    }

    @Test
    void openingTwiceIsIdempotent() {
        var db = TestDatabases.fresh();
        try (Database first = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            try (Database second = Database.open(db.url(), db.user(), db.password(), 2, null)) {
                assertTrue(second.isReachable());
            }
        }
    }

    @Test
    void aDatabaseMigratedBeforeTheRenumberingOpensAndRecordsTheNewVersions(@TempDir Path dir) {
        var db = TestDatabases.freshShared(dir);
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            d.jdbi().useHandle(h -> {
                h.execute("update \"flyway_schema_history\" set \"version\" = '21', \"script\" = 'V21__oauth_live_refresh_index.sql' where \"version\" = '5'");
                h.execute("update \"flyway_schema_history\" set \"version\" = '30', \"script\" = 'V30__callback_verify_throttle.sql' where \"version\" = '6'");
            });
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            List<String> versions = d.jdbi().withHandle(h -> h.createQuery(
                    "select \"version\" from \"flyway_schema_history\" where \"version\" is not null order by \"installed_rank\"")
                    .mapTo(String.class).list());
            // The renumbered history, then whatever migrations came after it (V7 and up) applied on top.
            assertEquals(List.of("1", "2", "3", "4", "5", "6"), versions.subList(0, 6));
            assertTrue(versions.stream().noneMatch(v -> v.equals("21") || v.equals("30")), versions.toString());
        }
    }
}
