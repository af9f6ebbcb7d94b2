package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.sandbox.FaultRule;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresCluster;
import dev.ledgerlink.testing.PostgresOnly;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import dev.ledgerlink.testing.Unavailable;
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
 * decisions.md, "Durability and failure": with the database unreachable, requests that need it get
 * 503 in the documented error shape with Retry-After, /readyz is 503, the server keeps running, and
 * when the database returns every acknowledged event is delivered with no manual step. On a
 * PostgreSQL cluster of the test's own, stopped for 30 s under publishing load (the shared server is
 * never stopped). Runs once, in the PostgreSQL pass of the suite (@PostgresOnly).
 */
@PostgresOnly
@Heavy
class DatabaseOutageTest {
    private static final String OPERATOR_KEY = "outage-test-operator-key";
    private static final Duration OUTAGE = Duration.ofSeconds(30);
    private static final int PUBLISHERS = 4;

    private final AtomicLong objectIds = new AtomicLong();
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<Long> delivered = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> unexpected = new ConcurrentHashMap<>();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicLong acknowledgedDuringOutage = new AtomicLong();
    private final AtomicBoolean databaseDown = new AtomicBoolean();

    @Test
    void publishingRidesOutAThirtySecondOutageAndLosesNothing() throws Exception {
        try (PostgresCluster cluster = PostgresCluster.start();
             Receiver receiver = new Receiver();
             TestServer server = TestServer.start(cluster.db(), s -> PublishingUnderFaults.quickDeliveries(s, OPERATOR_KEY, "PT10S"));
             var ticking = server.clock.followRealTime()) {
            Fixtures f = Fixtures.create(server);
            f.verified("invoice.create", receiver);
            PublishingUnderFaults.recordDelivered(receiver, delivered);
            String accountId = f.account().accountId();
            String accessToken = f.issue().accessToken();
            // Development mode (as test servers run): a client_id rule on identity, of another application and
            // with an effect this test would notice, makes the sandbox's hook look up the token's application
            // before the route. With the database down that look-up is the request's one wait for a
            // connection, answered with the documented 503 (web/SandboxHooks).
            server.services().faults().add(new FaultRule.Draft("identity", "anotherapp01", null, 429, null, null, null, 1000));

            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> publishers = new ArrayList<>();
            for (int i = 0; i < PUBLISHERS; i++) {
                publishers.add(Thread.ofVirtual().start(() -> publishUntil(stop, server.http, accountId)));
            }
            Eventually.await("events acknowledged before the outage", Duration.ofSeconds(30), () -> acknowledged.size() >= 20);

            cluster.stop();
            databaseDown.set(true);
            long downAt = System.nanoTime();
            Eventually.await("a 503 for a publish while the database is down", Duration.ofSeconds(30), () -> unavailable.get() > 0);
            TestHttp.Response ready = server.http.get("/readyz");
            assertEquals(503, ready.status(), "/readyz with the database down: " + ready.body());
            assertEquals(200, server.http.get("/healthz").status(), "the process itself stays alive");
            // A real token cannot be checked: 503, never a 401 that would tell its client to sign in again; and
            // development mode's hooks add no wait of their own (the answer comes within the client's timeout).
            assertUnavailableShape(server.http.get("/auth/api/v1/users/me", f.bearer(accessToken)), "identity endpoint");
            // A string that cannot be a token of ours is refused without the database (oauth/TokenFormat).
            assertEquals(401, server.http.get("/auth/api/v1/users/me", f.bearer("whatever-token")).status());
            assertUnavailableShape(server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=x&client_id="
                    + f.app().clientId() + "&client_secret=y"), "token endpoint");
            sleepUntil(downAt + OUTAGE.toNanos());

            databaseDown.set(false);
            cluster.startAgain();
            long before = acknowledged.size();
            Eventually.await("publishing acknowledged again once the database is back", Duration.ofSeconds(60), () -> acknowledged.size() > before + 20);
            Eventually.await("/readyz ready again", Duration.ofSeconds(30), () -> server.http.get("/readyz").status() == 200);
            stop.set(true);
            for (Thread t : publishers) t.join(Duration.ofSeconds(30));

            assertEquals(Map.of(), unexpected, "answers other than 202 and 503 (with the error shape) to publishing");
            assertEquals(0, acknowledgedDuringOutage.get(), "a 202 while the database was stopped cannot have been stored");
            Eventually.await("every acknowledged event delivered (" + acknowledged.size() + ")", Duration.ofSeconds(90),
                    () -> delivered.containsAll(acknowledged));
            assertTrue(server.http.get("/healthz").status() == 200);
        }
    }

    private void publishUntil(AtomicBoolean stop, TestHttp http, String accountId) {
        while (!stop.get()) {
            long objectId = objectIds.incrementAndGet();
            boolean downWhenSent = databaseDown.get();
            TestHttp.Response r;
            try {
                r = PublishingUnderFaults.publish(http, accountId, objectId, OPERATOR_KEY);
            } catch (RuntimeException e) {
                unexpected.merge(e.toString(), 1, Integer::sum);
                continue;
            }
            if (r.status() == 202) {
                acknowledged.add(objectId);
                if (downWhenSent && databaseDown.get()) acknowledgedDuringOutage.incrementAndGet();
            } else if (Unavailable.isDocumented(r)) {
                unavailable.incrementAndGet();
                Eventually.sleep(Duration.ofMillis(200));
            } else {
                unexpected.merge(r.status() + " " + r.body(), 1, Integer::sum);
            }
        }
    }

    private static void assertUnavailableShape(TestHttp.Response r, String what) {
        assertTrue(Unavailable.isDocumented(r), what + " with the database down: " + r.status() + " " + r.headers().map() + " " + r.body());
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) Eventually.sleep(Duration.ofNanos(left));
    }
}
