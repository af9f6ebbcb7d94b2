package dev.ledgerlink.store.migration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ledgerlink.oauth.TokenStore;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.JdbcUrls;
import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.testing.TestDatabases;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a database and its migrations, on whichever database this run of the suite uses. */
class MigrationsTest {
    @Test
    void migrationsRunAndInstantsRoundTripAsUtcOnBothDatabases() {
        var db = TestDatabases.fresh();
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            assertEquals(testDialect(), d.dialect());
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
            assertEquals(versions.stream().distinct().toList(), versions);
            // Versions 21 and 30 now name other migrations: only the old scripts' rows were renumbered.
            List<String> scripts = d.jdbi().withHandle(h -> h.createQuery(
                    "select \"script\" from \"flyway_schema_history\" where \"version\" in ('21', '30') order by \"installed_rank\"")
                    .mapTo(String.class).list());
            assertEquals(List.of(V21__binary_token_hashes.class.getName(), "V30__callback_pace.sql"), scripts);
        }
    }

    /**
     * Flyway records a Java migration's class name as its script, and V20-V24 moved from
     * dev.ledgerlink.store to dev.ledgerlink.store.migration: a database migrated before the move
     * names the old classes in its history. It opens, validates and runs no migration again.
     */
    @Test
    void aDatabaseMigratedBeforeTheJavaMigrationsMovedOpensAndValidates(@TempDir Path dir) {
        var db = TestDatabases.freshShared(dir);
        String history = "select \"installed_rank\", \"version\", \"script\" from \"flyway_schema_history\" order by \"installed_rank\"";
        List<String> migrated;
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            migrated = d.jdbi().withHandle(h -> h.createQuery(history).map((r, ctx) -> r.getString(1) + " " + r.getString(2) + " " + r.getString(3)).list());
            int renamed = d.jdbi().withHandle(h -> h.execute("""
                    update "flyway_schema_history" set "script" = replace("script", 'dev.ledgerlink.store.migration.', 'dev.ledgerlink.store.')
                    where "script" like 'dev.ledgerlink.store.migration.V%' and "version" in ('20', '21', '22', '23', '24')"""));
            assertEquals(5, renamed, "V20-V24, as a database migrated before the move has them");
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            List<String> now = d.jdbi().withHandle(h -> h.createQuery(history).map((r, ctx) -> r.getString(1) + " " + r.getString(2) + " " + r.getString(3)).list());
            assertEquals(migrated, now, "no migration ran again, and each Java migration's row names its class where it is now");
            assertTrue(Database.migrations(d.dataSource(), d.dialect()).load().validateWithResult().validationSuccessful, "Flyway validates the history");
        }
    }

    /**
     * V21 stores access and refresh token hashes as 32 bytes: tokens issued before (hex in the
     * column) still match. On H2 the migration is resumable; here it starts from a state a crash in
     * its middle leaves (the new column added, one row of the table decoded into it).
     */
    @Test
    void tokensIssuedWhileHashesWereHexMatchTheirBytesAfterTheMigration() {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        List<String> refreshTokens = List.of("refresh-one", "refresh-two", "refresh-three");
        String access = "access-one";
        try (HikariDataSource ds = poolAt(db, dialect, "20")) {
            Jdbi.create(ds).useHandle(h -> {
                long grant = grantBeforeV21(h);
                for (String t : refreshTokens) insertRefreshToken(h, grant, hex(t));
                h.execute("insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)"
                        + " select ?, id, user_id, application_id, scopes, created_at, created_at from oauth_grants where id = ?", hex(access), grant);
                if (dialect == Database.Dialect.H2) {   // cut off after its first page had begun
                    h.execute("alter table oauth_refresh_tokens add column token_digest bytea");
                    h.execute("update oauth_refresh_tokens set token_digest = ? where token_hash = ?", Hashes.sha256("refresh-one"), hex("refresh-one"));
                }
            });
        }
        try (HikariDataSource ds = poolAt(db, dialect, "21")) {   // V22 drops the unique constraints checked here
            Jdbi.create(ds).useHandle(h -> {
                for (String t : refreshTokens) {
                    assertArrayEquals(Hashes.sha256(t), h.createQuery("select token_hash from oauth_refresh_tokens where token_hash = :h")
                            .bind("h", Hashes.sha256(t)).mapTo(byte[].class).one(), t);
                }
                assertEquals(1, h.createQuery("select count(*) from oauth_access_tokens where token_hash = :h")
                        .bind("h", Hashes.sha256(access)).mapTo(Integer.class).one());
                // Still unique and required.
                assertThrows(RuntimeException.class, () -> h.execute(
                        "insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)"
                                + " select token_hash, grant_id, user_id, application_id, scopes, created_at from oauth_refresh_tokens"));
                assertThrows(RuntimeException.class, () -> h.execute(
                        "insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)"
                                + " select null, grant_id, user_id, application_id, scopes, created_at, expires_at from oauth_access_tokens"));
            });
        }
    }

    /**
     * V22 finds tokens by id: the hashes of tokens issued before are copied to the one table still
     * looked up by hash (every refresh token, the live access tokens only), the unique constraints on
     * the token tables go, and the selector key is made once. On H2 it starts from the state a crash
     * in the copy leaves (the table made, one refresh token copied).
     */
    @Test
    void tokensIssuedBeforeSelectorsStayFindableByTheirHashAfterTheMigration() {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        List<String> refreshTokens = List.of("refresh-used", "refresh-superseded", "refresh-live");
        Instant now = Instant.now();
        try (HikariDataSource ds = poolAt(db, dialect, "21")) {
            Jdbi.create(ds).useHandle(h -> {
                long grant = grantBeforeV21(h);
                for (String t : refreshTokens) insertRefreshToken(h, grant, Hashes.sha256(t));
                String access = "insert into oauth_access_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at, expires_at)"
                        + " select ?, id, user_id, application_id, scopes, created_at, ? from oauth_grants where id = ?";
                h.execute(access, Hashes.sha256("access-live"), now.plus(Duration.ofHours(1)), grant);
                h.execute(access, Hashes.sha256("access-expired"), now.minus(Duration.ofHours(1)), grant);
                h.execute(access, Hashes.sha256("access-revoked"), now.plus(Duration.ofHours(1)), grant);
                h.execute("update oauth_access_tokens set revoked_at = ? where token_hash = ?", now.minus(Duration.ofMinutes(1)), Hashes.sha256("access-revoked"));
                if (dialect == Database.Dialect.H2) {   // cut off after its first page
                    h.execute(V22__token_selectors.CREATE_LEGACY_TABLE);
                    h.execute("insert into oauth_legacy_token_hashes (token_hash, refresh_token_id, migrated_at)"
                            + " select token_hash, id, ? from oauth_refresh_tokens where token_hash = ?", now, Hashes.sha256("refresh-used"));
                }
            });
        }
        byte[] key;
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            key = d.jdbi().withHandle(h -> {
                for (String t : refreshTokens) {
                    assertEquals(1, h.createQuery("""
                            select count(*) from oauth_legacy_token_hashes l join oauth_refresh_tokens r on r.id = l.refresh_token_id
                            where l.token_hash = :h and r.token_hash = :h""").bind("h", Hashes.sha256(t)).mapTo(Integer.class).one(), t);
                }
                assertEquals(List.of(Hashes.sha256("access-live")).stream().map(HexFormat.of()::formatHex).toList(),
                        h.createQuery("select token_hash from oauth_legacy_token_hashes where access_token_id is not null")
                                .mapTo(byte[].class).stream().map(HexFormat.of()::formatHex).toList(), "only the live access token");
                assertEquals(4, h.createQuery("select count(*) from oauth_legacy_token_hashes").mapTo(Integer.class).one());
                assertThrows(RuntimeException.class, () -> h.execute("insert into oauth_legacy_token_hashes (token_hash, refresh_token_id, migrated_at)"
                        + " select token_hash, refresh_token_id, migrated_at from oauth_legacy_token_hashes"), "still unique there");
                // The token tables no longer hold a unique index on the hash: rows are found by id.
                h.execute("insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)"
                        + " select token_hash, grant_id, user_id, application_id, scopes, created_at from oauth_refresh_tokens");
                return h.createQuery("select selector_key from oauth_token_keys").map((row, ctx) -> row.getBytes(1)).one();
            });
            assertEquals(16, key.length);
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            assertArrayEquals(key, d.jdbi().withHandle(h -> h.createQuery("select selector_key from oauth_token_keys")
                    .map((row, ctx) -> row.getBytes(1)).one()), "made once, kept at every start");
        }
    }

    /**
     * V23 moves superseding from the live token to its grant: every grant with a newer grant of its
     * pair is superseded when that newer one was created, the newest of each pair stays live, tokens
     * superseded before keep their own mark, and the liveness index of the token table goes.
     */
    @Test
    void grantsWithANewerGrantOfTheirPairAreSupersededByTheMigration() throws SQLException {
        migrateV23From(0);
    }

    /**
     * On H2 each DDL statement commits at once, so a process killed inside V23 leaves some of its steps
     * done and no history row: the next start runs V23 again from its first step. Cut off after each
     * step in turn, the migration still ends in the same state.
     */
    @Test
    void aV23CutOffAfterAnyStepRunsAgainToTheSameEnd() throws SQLException {
        int steps = V23__superseded_grants.steps(!TestDatabases.postgres(), V23__superseded_grants.PAGE).size();
        for (int done = 1; done < steps; done++) migrateV23From(done);
    }

    /**
     * H2 holds all rows of a window in the heap, so on H2 V23 marks grants a page at a time (a million
     * grants in one window did not fit in the launcher's 96 MiB): whatever the page, and run again
     * after any page, it marks exactly what one pass over the whole table marks. Pairs here have
     * grants far apart, next to each other, on a page of their own, or only one grant.
     */
    @Test
    void v23MarksGrantsPageByPageAsOnePassWould() throws SQLException {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        try (HikariDataSource ds = poolAt(db, dialect, "22")) {
            Jdbi jdbi = Jdbi.create(ds);
            Instant start = Instant.parse("2026-11-24T06:00:00Z");
            List<Long> expected = jdbi.withHandle(h -> {
                long first = grantBeforeV21(h);
                long user = h.createQuery("select user_id from oauth_grants where id = :g").bind("g", first).mapTo(Long.class).one();
                long app = h.createQuery("select application_id from oauth_grants where id = :g").bind("g", first).mapTo(Long.class).one();
                List<Long> apps = new ArrayList<>(List.of(app));
                for (int i = 1; i < 4; i++) {
                    apps.add(h.createUpdate("insert into applications (client_id, client_secret_hash, name, redirect_uris, scopes, created_at, secret_rotated_at)"
                            + " values (:client, 'x', 'App', 'https://example.com/cb', 'user:profile:read', :now, :now)")
                            .bind("client", "client-" + i).bind("now", start).executeAndReturnGeneratedKeys("id").mapTo(Long.class).one());
                }
                // Which pair each next grant is of: pair 0 spread out, pair 1 in a run, pair 3 alone once.
                int[] pairs = {1, 1, 2, 0, 1, 1, 1, 2, 0, 3, 2, 2, 0, 1, 0, 0};
                for (int i = 0; i < pairs.length; i++) {
                    h.execute("insert into oauth_grants (user_id, application_id, scopes, created_at) values (?, ?, 'user:profile:read', ?)",
                            user, apps.get(pairs[i]), start.plus(Duration.ofMinutes(i + 1)));
                }
                return h.createQuery("""
                        select (select min(n.id) from oauth_grants n
                                where n.user_id = g.user_id and n.application_id = g.application_id and n.id > g.id)
                        from oauth_grants g order by g.id""").mapTo(Long.class).list();
            });
            try (var c = ds.getConnection()) {
                V23__superseded_grants.steps(dialect == Database.Dialect.H2, V23__superseded_grants.PAGE).getFirst().run(c);
                for (int page : new int[] {1, 2, 3, 5, 100}) {
                    jdbi.useHandle(h -> h.execute("update oauth_grants set superseded_at = null"));
                    V23__superseded_grants.supersedeInPages(c, page);
                    assertEquals(expected, nextGrants(jdbi), "pages of " + page);
                    V23__superseded_grants.supersedeInPages(c, page);
                    assertEquals(expected, nextGrants(jdbi), "pages of " + page + ", run again");
                }
                int temporary = jdbi.withHandle(h -> h.createQuery(dialect == Database.Dialect.H2
                        ? "select count(*) from information_schema.indexes where lower(index_name) like 'v23%'"
                        : "select count(*) from pg_indexes where schemaname = current_schema() and indexname like 'v23%'").mapTo(Integer.class).one());
                assertEquals(0, temporary, "the step's own index is gone");
            }
        }
    }

    /** For each grant in id order, the id of the grant whose created_at marks it superseded (null if none). */
    private static List<Long> nextGrants(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("""
                select (select min(n.id) from oauth_grants n
                        where n.user_id = g.user_id and n.application_id = g.application_id and n.created_at = g.superseded_at)
                from oauth_grants g order by g.id""").mapTo(Long.class).list());
    }

    /**
     * No table has two indexes over the same columns: each one is written by every insert and, on H2,
     * by every durable commit. H2 gave the foreign keys declared with their tables indexes of their
     * own beside the schema's; V24 takes them back. Here V24 starts as after a cut-off between dropping
     * a key and declaring it again (on H2: its DDL commits at once): the key comes back all the same.
     */
    @Test
    void noTableHasTwoIndexesOverTheSameColumnsAndEveryForeignKeyIsThere() throws SQLException {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        try (HikariDataSource ds = poolAt(db, dialect, "23")) {
            if (dialect == Database.Dialect.H2) {
                try (var c = ds.getConnection()) {
                    for (String key : V24__h2_foreign_key_indexes.foreignKeysOn(c, "deliveries", "event_id")) {
                        SchemaQueries.execute(c, "alter table deliveries drop constraint \"" + key + "\"");
                    }
                }
            }
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null); var c = d.jdbi().open()) {
            String indexes = dialect == Database.Dialect.H2 ? """
                    select lower(i.table_name), lower(i.index_name), listagg(lower(k.column_name), ',') within group (order by k.ordinal_position)
                    from information_schema.indexes i
                    join information_schema.index_columns k
                      on k.index_schema = i.index_schema and k.table_name = i.table_name and k.index_name = i.index_name
                    where i.table_schema = current_schema
                    group by i.table_name, i.index_name""" : """
                    select tablename, indexname, regexp_replace(regexp_replace(indexdef, '^[^(]*\\((.*)\\)[^)]*$', '\\1'), '\\s', '', 'g')
                    from pg_indexes where schemaname = current_schema()""";
            Map<String, List<String>> byColumns = new TreeMap<>();
            c.createQuery(indexes).map((r, ctx) -> List.of(r.getString(1), r.getString(2), r.getString(3))).list()
                    .forEach(row -> byColumns.computeIfAbsent(row.get(0) + " (" + row.get(2) + ")", k -> new ArrayList<>()).add(row.get(1)));
            byColumns.forEach((columns, names) -> assertEquals(1, names.size(), columns + " is indexed by " + names));
            for (String table : List.of("deliveries", "delivery_attempts", "events", "oauth_grants", "memberships", "applications")) {
                assertTrue(byColumns.keySet().stream().anyMatch(k -> k.startsWith(table + " (")), table + " has indexes");
            }
            // The delivery tables take an insert per delivery: none of their indexes is the start of another.
            for (String table : List.of("deliveries", "delivery_attempts")) {
                List<String> lists = byColumns.keySet().stream().filter(k -> k.startsWith(table + " ("))
                        .map(k -> k.substring(table.length() + 2, k.length() - 1)).toList();
                for (String a : lists) {
                    for (String b : lists) assertFalse(b.startsWith(a + ","), table + ": (" + a + ") and (" + b + ")");
                }
            }
            assertFalse(byColumns.containsKey("deliveries (lease_owner)"), "leased rows are read back by key (V26), not by their lease owner");
            for (var key : V24__h2_foreign_key_indexes.KEYS) {
                List<String> keys = V24__h2_foreign_key_indexes.foreignKeysOn(c.getConnection(), key.table(), key.column());
                assertEquals(1, keys.size(), "the foreign key of " + key.table() + "." + key.column() + ": " + keys);
                if (dialect == Database.Dialect.H2) assertEquals(key.name(), keys.getFirst());
            }
        }
    }

    /**
     * V25 fills each callback's latest attempt from the attempts recorded before it: the attempt with
     * the highest id, whichever delivery it belongs to (here an older delivery retried after a newer
     * one's attempt); V27 gives a callback never attempted its row, without an attempt.
     */
    @Test
    void v25AndV27FillEachCallbacksLatestAttemptFromTheAttemptsBeforeThem() throws SQLException {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        Instant t = Instant.parse("2026-11-25T06:00:00Z");
        long retried;   // deliveries, by the callback whose latest attempt each should hold
        long other;
        long never;     // a callback
        try (HikariDataSource ds = poolAt(db, dialect, "24")) {
            Jdbi jdbi = Jdbi.create(ds);
            long[] ids = jdbi.withHandle(h -> {
                long grant = grantBeforeV21(h);
                h.execute("insert into accounts (account_id, name, timezone, created_at) values ('ACCT1', 'x', 'UTC', ?)", t);
                long[] callbacks = new long[3];
                for (int i = 0; i < 3; i++) {
                    callbacks[i] = h.createUpdate("""
                            insert into callbacks (account_id, application_id, user_id, event, event_noun, uri, verified, disabled,
                                                   verifier_sealed, verifier_hash, created_at, updated_at)
                            select 'ACCT1', application_id, user_id, 'invoice', 'invoice', 'https://example.com/hook', true, false, 'x', 'x', :t, :t
                            from oauth_grants where id = :grant""").bind("t", t).bind("grant", grant)
                            .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
                }
                long older = delivery(h, callbacks[0], t);
                long newer = delivery(h, callbacks[0], t);
                long elsewhere = delivery(h, callbacks[1], t);
                attempt(h, older, 1, t, 500, "HTTP 500");
                attempt(h, newer, 1, t.plusSeconds(1), 200, null);
                attempt(h, elsewhere, 1, t.plusSeconds(2), null, "connection refused");
                attempt(h, older, 2, t.plusSeconds(3), 503, "HTTP 503");
                attempt(h, elsewhere, 2, t.plusSeconds(4), 200, null);
                delivery(h, callbacks[2], t);
                return new long[] {callbacks[0], older, callbacks[1], elsewhere, callbacks[2]};
            });
            retried = ids[1];
            other = ids[3];
            never = ids[4];
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            Map<Long, String> last = new TreeMap<>();
            d.jdbi().useHandle(h -> h.createQuery("select d.id, l.attempt, l.status_code, l.error, l.attempted_at from callback_last_attempts l"
                            + " join deliveries d on d.id = l.delivery_id and d.callback_id = l.callback_id")
                    .map((r, ctx) -> Map.entry(r.getLong(1), r.getInt(2) + " " + r.getObject(3) + " " + r.getString(4) + " "
                            + TimeMapping.read(r, "attempted_at")))
                    .forEach(e -> last.put(e.getKey(), e.getValue())));
            assertEquals(Map.of(retried, "2 503 HTTP 503 " + t.plusSeconds(3), other, "2 200 null " + t.plusSeconds(4)), last);
            List<Instant> none = d.jdbi().withHandle(h -> h.createQuery("select attempted_at from callback_last_attempts where callback_id = :c")
                    .bind("c", never).mapTo(Instant.class).list());
            assertEquals(Arrays.asList((Instant) null), none, "a callback never attempted has its row (V27), without an attempt");
        }
    }

    private static long delivery(Handle h, long callbackId, Instant t) {
        return h.createUpdate("insert into deliveries (callback_id, kind, state, attempts, next_attempt_at, created_at)"
                        + " values (:c, 'verification', 'pending', 0, :t, :t)").bind("c", callbackId).bind("t", t)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    }

    private static void attempt(Handle h, long deliveryId, int attempt, Instant at, Integer status, String error) {
        h.createUpdate("insert into delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error)"
                        + " values (:d, :n, :at, :status, 5, :error)").bind("d", deliveryId).bind("n", attempt).bind("at", at)
                .bind("status", status).bind("error", error).execute();
    }

    /** Database at V22 with grants of two pairs, the first {@code stepsDone} of V23's steps run by hand, then the migrations. */
    private void migrateV23From(int stepsDone) throws SQLException {
        var db = TestDatabases.fresh();
        Database.Dialect dialect = testDialect();
        Instant first = Instant.parse("2026-11-24T06:00:00Z");
        Instant second = first.plus(Duration.ofHours(1));
        Instant third = first.plus(Duration.ofHours(2));
        long user;
        long app;
        long otherApp;
        try (HikariDataSource ds = poolAt(db, dialect, "22")) {
            Jdbi jdbi = Jdbi.create(ds);
            long oldest = jdbi.withHandle(MigrationsTest::grantBeforeV21);
            long[] ids = jdbi.withHandle(h -> {
                long u = h.createQuery("select user_id from oauth_grants where id = :g").bind("g", oldest).mapTo(Long.class).one();
                long a = h.createQuery("select application_id from oauth_grants where id = :g").bind("g", oldest).mapTo(Long.class).one();
                long other = h.createUpdate("insert into applications (client_id, client_secret_hash, name, redirect_uris, scopes, created_at, secret_rotated_at)"
                        + " values ('other', 'x', 'Other', 'https://example.com/cb', 'user:profile:read', :now, :now)").bind("now", first)
                        .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
                String grant = "insert into oauth_grants (user_id, application_id, scopes, created_at) values (?, ?, 'user:profile:read', ?)";
                h.execute(grant, u, a, second);
                h.execute(grant, u, a, third);
                h.execute(grant, u, other, second);
                // As the code before V23 left them: the older grants' tokens superseded one by one.
                for (long g : h.createQuery("select id from oauth_grants order by id").mapTo(Long.class).list()) {
                    insertRefreshToken(h, g, Hashes.sha256("refresh-" + g));
                }
                h.execute("update oauth_refresh_tokens set superseded_at = ? where grant_id = ?", second, oldest);
                h.execute("update oauth_refresh_tokens set superseded_at = ? where grant_id = ?", third, oldest + 1);
                for (var step : V23__superseded_grants.steps(dialect == Database.Dialect.H2, V23__superseded_grants.PAGE).subList(0, stepsDone)) {
                    step.run(h.getConnection());
                }
                return new long[] {u, a, other};
            });
            user = ids[0];
            app = ids[1];
            otherApp = ids[2];
        }
        try (Database d = Database.open(db.url(), db.user(), db.password(), 2, null)) {
            List<String> superseded = d.jdbi().withHandle(h -> h.createQuery(
                    "select application_id, created_at, superseded_at from oauth_grants order by id")
                    .map((r, ctx) -> (r.getLong(1) == app ? "app" : "other") + " " + TimeMapping.read(r, 2) + " " + TimeMapping.read(r, 3)).list());
            assertEquals(List.of("app " + first + " " + second, "app " + second + " " + third, "app " + third + " null",
                    "other " + second + " null"), superseded, "after " + stepsDone + " of V23's steps were cut off");
            String indexes = dialect == Database.Dialect.H2
                    ? "select count(*) from information_schema.indexes where lower(index_name) = 'oauth_refresh_tokens_live'"
                    : "select count(*) from pg_indexes where schemaname = current_schema() and indexname = 'oauth_refresh_tokens_live'";
            int liveIndexes = d.jdbi().withHandle(h -> h.createQuery(indexes).mapTo(Integer.class).one());
            assertEquals(0, liveIndexes, "the liveness index is gone");
            for (long application : new long[] {app, otherApp}) {
                int live = d.jdbi().withHandle(h -> new TokenStore(h).countLiveRefreshTokens(user, application));
                assertEquals(1, live, "the newest grant's token is the pair's live one");
            }
        }
    }

    /** The dialect of the database these tests run on. */
    private static Database.Dialect testDialect() {
        return TestDatabases.postgres() ? Database.Dialect.POSTGRESQL : Database.Dialect.H2;
    }

    /**
     * A pool of its own on the test database, its schema migrated up to {@code version} and no further
     * (production code has no such entry point).
     */
    private static HikariDataSource poolAt(TestDatabases.TestDb db, Database.Dialect dialect, String version) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(JdbcUrls.normalize(db.url()));
        config.setUsername(Database.userOrDefault(db.user(), dialect));
        config.setPassword(db.password() == null ? "" : db.password());
        HikariDataSource ds = new HikariDataSource(config);
        try {
            Database.migrations(ds, dialect).target(version).load().migrate();
            return ds;
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    /** A refresh token of the grant stored with this hash, in whatever form the schema of the moment keeps it. */
    private static void insertRefreshToken(Handle h, long grant, Object hash) {
        h.execute("insert into oauth_refresh_tokens (token_hash, grant_id, user_id, application_id, scopes, created_at)"
                + " select ?, id, user_id, application_id, scopes, created_at from oauth_grants where id = ?", hash, grant);
    }

    private static long grantBeforeV21(Handle h) {
        Instant now = Instant.parse("2026-11-24T06:00:00Z");
        long user = h.createUpdate("insert into users (email, email_key, password_hash, first_name, last_name, created_at)"
                + " values ('a@example.com', 'a@example.com', 'x', 'A', 'B', :now)").bind("now", now)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
        long app = h.createUpdate("insert into applications (client_id, client_secret_hash, name, redirect_uris, scopes, created_at, secret_rotated_at)"
                + " values ('client', 'x', 'App', 'https://example.com/cb', 'user:profile:read', :now, :now)").bind("now", now)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
        return h.createUpdate("insert into oauth_grants (user_id, application_id, scopes, created_at) values (:user, :app, 'user:profile:read', :now)")
                .bind("user", user).bind("app", app).bind("now", now).executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    }

    private static String hex(String token) {
        return HexFormat.of().formatHex(Hashes.sha256(token));
    }
}
