package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pace across nodes: two real server processes on one database, delivery.rate-limit=5, spend one
 * budget per callback between them, not one each. On the H2 run the database is an H2 file opened by
 * both processes; on the PostgreSQL run, one schema.
 */
@Heavy
class PaceSharingTest {
    private static final int RATE = 5;
    private static final int EVENTS = 60;

    @TempDir
    Path dir;

    @Test
    void twoServersSharingADatabaseKeepOneCallbackUnderOneRateLimitTogether() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        List<Instant> arrivals = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        try (Receiver receiver = new Receiver()) {
            Fixtures f;
            long callbackId;
            try (TestServer server = TestServer.start(db, t -> t.set(Setting.SECRETS_KEY, key).set(Setting.DB_POOL_SIZE, "4"))) {
                f = Fixtures.create(server);
                callbackId = f.verified("invoice", receiver).id();
                f.verificationsRecorded(callbackId);
            }
            receiver.clear();
            receiver.answer(r -> {
                arrivals.add(Instant.now());   // the wall clock, which both processes keep the pace by
                seen.computeIfAbsent(r.header("X-Service-Event-Id"), k -> new AtomicInteger()).incrementAndGet();
                return Receiver.Answer.of(200);
            });
            Settings settings = Settings.builder().set(Setting.DB_URL, db.url()).set(Setting.DB_USER, db.user())
                    .set(Setting.DB_POOL_SIZE, "4").set(Setting.SECRETS_KEY, key).build();
            String[] nodeSettings = {"delivery.rate-limit=" + RATE, "delivery.poll-interval=PT0.05S"};
            Services s = Services.create(settings, Clock.systemUTC(), LedgerlinkServer.openDatabase(settings, null),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            try (ServerProcess one = ServerProcess.start(db, key, dir.resolve("one.log"), nodeSettings);
                 ServerProcess two = ServerProcess.start(db, key, dir.resolve("two.log"), nodeSettings)) {
                String oneUrl = one.awaitBaseUrl();
                String twoUrl = two.awaitBaseUrl();
                Instant start = Instant.now();
                // Queued without an engine in this process: both nodes claim them from the queue.
                for (int i = 1; i <= EVENTS; i++) {
                    s.events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), (long) i, f.user().id(), null));
                }
                Deliveries.await("all " + EVENTS + " delivered (" + seen.size() + ")", () -> delivered(s, "delivered") == EVENTS);

                assertEquals(EVENTS, seen.size(), "none dropped");
                assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each once: " + seen);
                assertEquals(0, delivered(s, "dropped"));
                assertTrue(claimedBy(oneUrl) > 0 && claimedBy(twoUrl) > 0,
                        "both nodes took part: " + claimedBy(oneUrl) + " and " + claimedBy(twoUrl));

                Duration took = Duration.between(start, arrivals.stream().max(Instant::compareTo).orElseThrow());
                long lowerBound = (EVENTS - RATE) / RATE;
                assertTrue(took.compareTo(Duration.ofSeconds(lowerBound)) >= 0,
                        EVENTS + " at " + RATE + "/s in all (burst " + RATE + ") cannot arrive within " + lowerBound + " s: " + took);
                // The budget bounds when sends start (PaceRuleTest: r·w + r exactly), which each attempt row records
                // (attempted_at): arrivals at the receiver would add the send's latency, which bunches them on a
                // busy machine. A send starts a little after the claim that took its slot (the pace's own
                // statements): one second's sends are allowed for that. A budget per node would allow twice the
                // rate: 30 in 2 s, 50 in 4 s.
                List<Long> micros = s.database().jdbi().withHandle(h -> h.createQuery(
                        "select a.attempted_at from delivery_attempts a join deliveries d on d.id = a.delivery_id where d.kind = 'event'")
                        .map((rs, ctx) -> dev.ledgerlink.store.TimeMapping.read(rs, "attempted_at")).list()).stream()
                        .map(t -> java.time.temporal.ChronoUnit.MICROS.between(Instant.EPOCH, t)).sorted().toList();
                for (double window : new double[] {2, 4}) {
                    double most = RATE * (window + 1) + RATE;
                    int got = PaceRuleTest.mostInAnyWindow(micros, (long) (window * 1_000_000));
                    assertTrue(got <= most, "at most " + most + " sends started in any " + window + " s, got " + got);
                }
                // One attempt each: waiting for a turn is no attempt. A machine loaded enough may time a send out and
                // retry it (a real attempt, recorded with its error); anything else beside the answered ones is a fault.
                List<String> outcomes = s.database().jdbi().withHandle(h -> h.createQuery(
                        "select coalesce(cast(a.status_code as varchar), a.error) from delivery_attempts a join deliveries d on d.id = a.delivery_id "
                                + "where d.kind = 'event'").mapTo(String.class).list());
                List<String> others = outcomes.stream().filter(o -> !"200".equals(o)).toList();
                assertEquals(EVENTS, outcomes.size() - others.size(), "one answered attempt each: " + outcomes);
                assertTrue(others.stream().allMatch(o -> o.startsWith("timed out") || o.startsWith("connect")),
                        "waiting for a turn is no attempt; attempts besides the answered ones: " + others);
            } finally {
                s.database().close();
            }
        }
    }

    private static long delivered(Services s, String state) {
        return s.database().jdbi().withHandle(h -> h.createQuery("select count(*) from deliveries where state = :s and kind = 'event'")
                .bind("s", state).mapTo(Long.class).one());
    }

    /** The node's ledgerlink_deliveries_claimed_total on its /metrics: rows it took from the queue. */
    private static double claimedBy(String baseUrl) {
        try (TestHttp http = new TestHttp(baseUrl)) {
            return http.get("/metrics").body().lines().filter(l -> l.startsWith("ledgerlink_deliveries_claimed_total"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        }
    }
}
