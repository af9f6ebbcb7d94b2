package dev.ledgerlink.bench.growth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.delivery.ReceivedLog;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.http.LoopbackReceiver;
import dev.ledgerlink.bench.oauth.TokenCalls;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.oauth.TokenStrings;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.store.JdbcUrls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bulk fill writes what the service writes: a database filled at a thousandth of the growth size
 * reads back through a real server as rows the service wrote would. A filled chain's live refresh token
 * rotates and its successor rotates again; filled backlog deliveries, once due, are claimed, signed with
 * their filled callback's code and sent, and their attempts recorded on top of the filled ones; the
 * counts are the size's. On H2 and on the harness's own PostgreSQL.
 */
class GrowthFillTest {
    private static final GrowthSize SIZE = GrowthSize.of(0.001);
    /** GrowthWorld.accountId's form. */
    private static final java.util.regex.Pattern FILLED_ACCOUNT = java.util.regex.Pattern.compile("g[0-9]{7}");
    private static Path dir;
    private static PrivatePostgres pg;

    @BeforeAll
    static void cluster() throws Exception {
        // Under /var/tmp, readable by the postgres user the cluster runs as (JUnit's temporary directories are the runner's only).
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "ledgerlink-growth-test-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        pg = PrivatePostgres.start(dir.resolve("pg"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (pg != null) pg.close();
        GrowthDatabase.deleteTree(dir);
    }

    @ParameterizedTest
    @EnumSource(BenchDatabase.Kind.class)
    void filledRowsReadBackThroughTheServiceAsItsOwn(BenchDatabase.Kind kind) throws Exception {
        BenchConfig config = BenchConfig.quick(List.of(kind), null, dir.resolve("out-" + kind.label()));
        try (BenchRun run = new BenchRun(config)) {
            GrowthDatabase kept = GrowthDatabase.ensure(run, kind, SIZE, dir, pg, Duration.ofSeconds(1), System.out::println);
            GrowthWorld world = kept.world();
            Map<String, Long> counts = kept.record().counts();
            assertEquals(SIZE.users(), counts.get("users"));
            assertEquals(SIZE.grants(), counts.get("oauth_grants"));
            assertEquals(SIZE.refreshTokens(), counts.get("oauth_refresh_tokens"));
            assertEquals(SIZE.refreshTokens(), counts.get("oauth_access_tokens"));
            assertEquals(SIZE.callbacks(), counts.get("callbacks"));
            assertEquals(SIZE.events(), counts.get("events"));
            assertTrue(counts.get("deliveries_pending") > SIZE.burstEvents() / 2, "a backlog behind the failing callbacks: " + counts);

            // A second ensure reuses the kept database instead of filling it again.
            assertEquals(kept.record().filledAt(), GrowthDatabase.ensure(run, kind, SIZE, dir, pg, Duration.ofSeconds(1), s -> {}).record().filledAt());

            ReceivedLog log = new ReceivedLog();
            // Any failing callback's retry may fall due as soon as the server runs (the fill ends moments before): each is
            // checked with its own code, known before the server starts.
            for (long c = 1; c <= SIZE.callbacks(); c++) log.codeFor("/" + GrowthWorld.CallbackKind.of(c).path() + "/" + c, world.callbackCode(c));
            // Only the filled accounts' requests are this test's: other tests' servers on this machine may still retry to
            // a loopback port this receiver now has (their paths look alike), and are no business of the fill.
            LoopbackReceiver.Handler filledOnly = r -> {
                String account = String.valueOf(FormParams.parse(r.body()).get("account_id"));
                if (FILLED_ACCOUNT.matcher(account).matches()) log.received(r);
            };
            try (LoopbackReceiver receiver = new LoopbackReceiver(filledOnly);
                 BenchRun.Stage stage = run.stage(kept.database(), kept.secretsKey())) {
                kept.prepareForRun(receiver.port());
                Jdbi jdbi = Jdbi.create(JdbcUrls.normalize(stage.db.url()), stage.db.user().isEmpty() ? "sa" : stage.db.user(), "");
                consistent(jdbi);
                ServerProcess server = stage.start(true);

                // A hot grant's chain continues from its filled live token, twice.
                long grant = SIZE.supersededGrants() + 1;
                long pair = grant - SIZE.supersededGrants() - 1;
                long app = world.applicationOfPair(pair);
                String token = TokenStrings.refreshToken(jdbi, world.liveRefreshTokenId(grant), world.refreshSecret(grant, world.liveChainPosition(grant)));
                TokenCalls.Client client = new TokenCalls.Client(GrowthWorld.clientId(app), world.clientSecret(app), "http://127.0.0.1:9/bench/callback");
                try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
                    TokenCalls.Tokens next = TokenCalls.tokens(TokenCalls.refresh(http, client, token));
                    TokenCalls.tokens(TokenCalls.refresh(http, client, next.refreshToken()));
                    assertEquals(400, TokenCalls.refresh(http, client, token).status(), "the filled token was used once");
                }

                // A failing callback's backlog, made due, is claimed, signed with the callback's code and sent.
                long callback = GrowthWorld.failingCallback(1);
                long before = attempts(jdbi, callback);
                int due = jdbi.withHandle(h -> h.createUpdate("update deliveries set next_attempt_at = :now where callback_id = :c and state = 'pending'")
                        .bind("now", OffsetDateTime.ofInstant(Instant.now(), ZoneOffset.UTC)).bind("c", callback).execute());
                assertTrue(due > 0, "callback " + callback + " has a backlog");
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (attempts(jdbi, callback) < before + due && System.nanoTime() < deadline) Thread.sleep(100);
                assertEquals(before + due, attempts(jdbi, callback), "one more attempt for each due delivery");
                assertEquals(0, log.badSignatures(), "every backlog delivery signed with its filled callback's code: " + log.badSignatureExamples());
                assertTrue(log.unknownEvents() >= due, "the receiver got each of them (events the run did not publish)");
                long waitingOrDropped = jdbi.withHandle(h -> h.createQuery("select count(*) from deliveries where callback_id = :c"
                        + " and (state = 'pending' and next_attempt_at > :now or state = 'dropped')")
                        .bind("c", callback).bind("now", OffsetDateTime.now(ZoneOffset.UTC)).mapTo(Long.class).one());
                assertEquals(due, waitingOrDropped, "each failed one waits for its next retry, or was dropped after its last");
            }
        }
    }

    private static long attempts(Jdbi jdbi, long callback) {
        return jdbi.withHandle(h -> h.createQuery("select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id where d.callback_id = :c")
                .bind("c", callback).mapTo(Long.class).one());
    }

    /** What the service keeps true of its rows holds of the filled ones. */
    private static void consistent(Jdbi jdbi) {
        jdbi.useHandle(h -> {
            assertEquals(0L, h.createQuery("select count(*) from deliveries d where d.attempts <> (select count(*) from delivery_attempts a where a.delivery_id = d.id)")
                    .mapTo(Long.class).one(), "each delivery's attempts column counts its attempt rows");
            assertEquals(0L, h.createQuery("select count(*) from deliveries d join callbacks c on c.id = d.callback_id where d.state = 'pending' and mod(c.id, 100) >= 10")
                    .mapTo(Long.class).one(), "only failing callbacks have pending deliveries");
            assertEquals(0L, h.createQuery("""
                            select count(*) from (select grant_id from oauth_refresh_tokens where used_at is null group by grant_id having count(*) <> 1) x""")
                    .mapTo(Long.class).one(), "one unused refresh token per grant");
            assertEquals(0L, h.createQuery("select count(*) from (select user_id, application_id from oauth_grants where superseded_at is null"
                    + " group by user_id, application_id having count(*) <> 1) x").mapTo(Long.class).one(), "one live grant per pair");
            assertEquals(0L, h.createQuery("select count(*) from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id"
                    + " where r.user_id <> g.user_id or r.application_id <> g.application_id or r.created_at < g.created_at").mapTo(Long.class).one(),
                    "tokens are their grant's, minted after it");
            assertEquals(h.createQuery("select count(*) from oauth_refresh_tokens").mapTo(Long.class).one(),
                    h.createQuery("select count(distinct token_hash) from oauth_refresh_tokens").mapTo(Long.class).one(), "every token its own secret");
            assertEquals(0L, h.createQuery("select count(*) from callbacks c where not exists (select 1 from callback_last_attempts l where l.callback_id = c.id)")
                    .mapTo(Long.class).one(), "every callback has its latest-attempt row");
        });
    }
}
