package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresCluster;
import dev.ledgerlink.testing.PostgresOnly;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import dev.ledgerlink.testing.Unavailable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * issue 33, "PostgreSQL restarted under token load": the test's own cluster is restarted with
 * {@code pg_ctl restart -m fast} while 64 refresh chains run over HTTP. Every answer is a 200 or the
 * documented 503 with Retry-After; a chain that got a 503 presents the same token again and succeeds;
 * every token answered 200 works for the next refresh (a 400 would mean an acknowledged rotation was
 * lost, or a rotation whose answer was lost was committed); no token gets two successors (in the
 * database, each chain's grant has exactly one refresh token per rotation answered 200, plus the first,
 * and one of them live); and the same server, never restarted, serves every chain again afterwards.
 * Runs once, in the PostgreSQL pass of the suite (@PostgresOnly).
 */
@PostgresOnly
@Heavy
class DatabaseRestartTest {
    private static final int CHAINS = 64;
    private static final int RESTARTS = 2;

    private final Map<String, Integer> unexpected = new ConcurrentHashMap<>();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicLong refreshed = new AtomicLong();

    @Test
    void refreshChainsRideOutPostgresRestartsWithNoTokenLostOrForked() throws Exception {
        try (PostgresCluster cluster = PostgresCluster.start();
             TestServer server = TestServer.start(cluster.db(), s -> s)) {
            Fixtures f = Fixtures.create(server);
            List<Chain> chains = new ArrayList<>();
            for (int i = 0; i < CHAINS; i++) {
                User user = server.services().users().create("chain" + i + "." + System.nanoTime() + "@example.com",
                        "correct horse battery staple " + i, "Chain", Integer.toString(i));
                TokenPair pair = server.services().tokens().issue(user.id(), f.app().id(), Set.copyOf(Fixtures.SCOPES));
                chains.add(new Chain(user.id(), pair.refreshToken()));
            }

            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (Chain c : chains) threads.add(Thread.ofVirtual().start(() -> c.refreshUntil(stop, server, f)));
            Eventually.await("every chain refreshed before the restart", Duration.ofSeconds(60), () -> chains.stream().allMatch(c -> c.ok.get() >= 3));

            for (int r = 1; r <= RESTARTS; r++) {
                long before = refreshed.get();
                cluster.restart();
                Eventually.await("refreshes answered after restart " + r, Duration.ofSeconds(60), () -> refreshed.get() > before + CHAINS);
            }
            List<Long> afterRestarts = chains.stream().map(c -> c.ok.get()).toList();
            Eventually.await("every chain refreshed again on the same server after the restarts", Duration.ofSeconds(60),
                    () -> allAdvanced(chains, afterRestarts, 3));
            stop.set(true);
            for (Thread t : threads) t.join(Duration.ofSeconds(60));
            System.out.printf("DatabaseRestartTest: %d restarts, %d refreshes answered 200, %d answered 503, other answers %s%n",
                    RESTARTS, refreshed.get(), unavailable.get(), unexpected);

            assertEquals(Map.of(), unexpected, "answers other than 200 and the documented 503 (" + refreshed.get() + " refreshed, "
                    + unavailable.get() + " answered 503)");
            assertEquals(200, server.http.get("/readyz").status());
            try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "")) {
                for (Chain c : chains) c.assertOneSuccessorPerAnsweredRotation(db, f.app().id());
            }
            for (Chain c : chains) {
                assertEquals(200, OAuthFlows.refresh(server, f, c.token).status(), "the last token answered to chain of user " + c.userId);
            }
        }
    }

    private static boolean allAdvanced(List<Chain> chains, List<Long> from, long by) {
        for (int i = 0; i < chains.size(); i++) {
            if (chains.get(i).ok.get() < from.get(i) + by) return false;
        }
        return true;
    }

    /** One client's refresh chain: it always holds the newest refresh token it was answered. */
    private final class Chain {
        final long userId;
        volatile String token;
        final AtomicLong ok = new AtomicLong();

        Chain(long userId, String token) {
            this.userId = userId;
            this.token = token;
        }

        void refreshUntil(AtomicBoolean stop, TestServer server, Fixtures f) {
            while (!stop.get()) {
                TestHttp.Response r;
                try {
                    r = OAuthFlows.refresh(server, f, token);
                } catch (RuntimeException e) {
                    unexpected.merge(e.toString(), 1, Integer::sum);
                    Eventually.sleep(Duration.ofMillis(200));
                    continue;
                }
                if (r.status() == 200) {
                    String next = r.json().path("refresh_token").asText();
                    token = next;
                    ok.incrementAndGet();
                    refreshed.incrementAndGet();
                } else if (Unavailable.isDocumented(r)) {
                    unavailable.incrementAndGet();
                    Eventually.sleep(Duration.ofMillis(100));   // then the same token again
                } else {
                    unexpected.merge(r.status() + " " + r.body(), 1, Integer::sum);
                    return;   // a chain refused is broken for good: the assertion names why
                }
            }
        }

        /** The grant holds the first token plus one successor per rotation answered 200, and exactly one of them is live. */
        void assertOneSuccessorPerAnsweredRotation(Connection db, long applicationId) throws Exception {
            try (PreparedStatement st = db.prepareStatement("""
                    select count(*), count(*) filter (where used_at is null and revoked_at is null and superseded_at is null)
                      from oauth_refresh_tokens where user_id = ? and application_id = ?""")) {
                st.setLong(1, userId);
                st.setLong(2, applicationId);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    assertEquals(ok.get() + 1, rs.getLong(1), "refresh tokens of the chain of user " + userId
                            + ": the first and one per rotation answered 200 (" + ok.get() + ")");
                    assertEquals(1, rs.getLong(2), "live refresh tokens of the chain of user " + userId);
                }
            }
        }
    }
}
