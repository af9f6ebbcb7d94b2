package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LogLines;
import dev.ledgerlink.testing.PostgresCluster;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import dev.ledgerlink.testing.Tmpfs;
import dev.ledgerlink.testing.Unavailable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * issue 33, "A full disk": the database's data directory on a small file system of the test's own (a
 * tmpfs, 24 MiB for an H2 file, 96 MiB for a PostgreSQL cluster the test starts there), filled to the
 * last byte while the server publishes events, refreshes tokens and reads over HTTP. Requests that must
 * write get the documented 503 with Retry-After (nothing else, no 500); reads keep working where the
 * database allows (PostgreSQL serves them; H2 closes its file at the failed write, so there they get
 * the same 503); once the test frees the space, the same server acknowledges writes again with no
 * manual step; every event acknowledged before, during or after is delivered; the log says once, in one
 * line without a stack trace, that the disk is full. On H2 the file is then closed cleanly, opens
 * again with every acknowledged event in it, reads whole ({@code SCRIPT}, what a rebuild reads) and
 * every delivery row can still be updated (the symptom of a damaged file, docs/operations.md).
 * Runs in both passes of the suite, each on its own database.
 */
@Heavy
class DiskFullTest {
    private static final String OPERATOR_KEY = "disk-full-test-operator-key";
    private static final int PUBLISHERS = 2;
    /** The test servers' pool (TestServer.settingsFor). */
    private static final int POOL_SIZE = 8;

    private enum Phase { BEFORE, FULL, FREED }

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.BEFORE);
    private final AtomicLong objectIds = new AtomicLong();
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<Long> delivered = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> unexpected = new ConcurrentHashMap<>();
    private final Map<Phase, AtomicLong> writesAcknowledged = counters();
    private final Map<Phase, AtomicLong> writesRefused = counters();
    private final Map<Phase, AtomicLong> readsAnswered = counters();
    private final Map<Phase, AtomicLong> readsRefused = counters();

    @Test
    void aFullDiskRefusesWritesWith503UntilSpaceIsFreedAndLosesNothing() throws Exception {
        boolean postgres = TestDatabases.postgres();
        try (Tmpfs disk = Tmpfs.mount(postgres ? "96m" : "24m");
             PostgresCluster cluster = postgres ? PostgresCluster.start(disk.dir(), List.of("--wal-segsize=1")) : null;
             Receiver receiver = new Receiver();
             LogLines log = new LogLines()) {
            Path h2Base = disk.dir().resolve("ledgerlink");
            TestDatabases.TestDb db = postgres ? cluster.db() : new TestDatabases.TestDb("jdbc:h2:file:" + h2Base, "", "");
            try (TestServer server = TestServer.start(db, s -> PublishingUnderFaults.quickDeliveries(s, OPERATOR_KEY, "PT5S"));
                 var ticking = server.clock.followRealTime()) {
                Fixtures f = Fixtures.create(server);
                f.verified("invoice.create", receiver);
                PublishingUnderFaults.recordDelivered(receiver, delivered);
                String accountId = f.account().accountId();
                var pair = f.issue();
                String accessToken = pair.accessToken();
                String[] refreshToken = {pair.refreshToken()};

                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> load = new ArrayList<>();
                for (int i = 0; i < PUBLISHERS; i++) load.add(Thread.ofVirtual().start(() -> publishUntil(stop, server.http, accountId)));
                load.add(Thread.ofVirtual().start(() -> refreshUntil(stop, server, f, refreshToken)));
                load.add(Thread.ofVirtual().start(() -> readUntil(stop, server.http, f, accountId, accessToken)));
                Eventually.await("writes acknowledged before the disk fills", Duration.ofSeconds(60), () -> acknowledged.size() >= 20);

                phase.set(Phase.FULL);
                disk.fill();
                Eventually.await("writes refused with 503 while the disk is full", Duration.ofSeconds(60), () -> writesRefused.get(Phase.FULL).get() >= 3);
                if (postgres) Eventually.await("reads answered while the disk is full", Duration.ofSeconds(30), () -> readsAnswered.get(Phase.FULL).get() >= 5);

                disk.free();
                long freedAt = System.nanoTime();
                phase.set(Phase.FREED);
                Eventually.await("a write acknowledged once space is freed", Duration.ofSeconds(60), () -> writesAcknowledged.get(Phase.FREED).get() >= 1);
                double resumedAfter = (System.nanoTime() - freedAt) / 1e9;
                Eventually.await("writes acknowledged again once space is freed", Duration.ofSeconds(60),
                        () -> writesAcknowledged.get(Phase.FREED).get() >= 20 && readsAnswered.get(Phase.FREED).get() >= 5);
                stop.set(true);
                for (Thread t : load) t.join(Duration.ofSeconds(60));
                System.out.printf("DiskFullTest on %s: writes acknowledged %s, refused %s; reads answered %s, refused %s; other answers %s; "
                                + "first write acknowledged %.1f s after space was freed%n",
                        postgres ? "PostgreSQL" : "H2", writesAcknowledged, writesRefused, readsAnswered, readsRefused, unexpected, resumedAfter);

                assertEquals(Map.of(), unexpected, "answers other than 2xx and the documented 503 with Retry-After");
                if (postgres) assertEquals(0, readsRefused.get(Phase.FULL).get(), "PostgreSQL serves reads with its disk full");
                Eventually.await("every acknowledged event delivered (" + acknowledged.size() + ")", Duration.ofSeconds(90),
                        () -> delivered.containsAll(acknowledged));
                assertEquals(200, OAuthFlows.refresh(server, f, refreshToken[0]).status(), "the last refresh token answered works");
            }

            List<LogLines.Line> saysFull = log.matching(l -> l.message().contains("is full (") && l.logger().endsWith("DiskFull"));
            assertEquals(1, saysFull.size(), "one line says the disk is full: " + saysFull);
            assertTrue(saysFull.getFirst().message().contains(postgres ? "could not extend file" : "No space left on device"), saysFull.toString());
            log.all().stream().map(l -> l.toString().length() > 300 ? l.toString().substring(0, 300) : l.toString())
                    .collect(java.util.stream.Collectors.groupingBy(l -> l.replaceAll("\\d+", "N"), java.util.TreeMap::new, java.util.stream.Collectors.counting()))
                    .forEach((line, n) -> System.out.println("log x" + n + ": " + line));
            // The pool says once per connection it drops that it was broken (with the driver's exception): at most the pool's size.
            List<LogLines.Line> traces = log.matching(LogLines.Line::stackTrace);
            assertEquals(List.of(), traces.stream().filter(l -> !l.message().contains("marked as broken")).toList(), "no stack trace in the log");
            assertTrue(traces.size() <= POOL_SIZE, "a stack trace per pooled connection at most: " + traces);
            assertEquals(List.of(), log.matching(l -> l.message().contains("-> 503")), "no line per refused request");
            if (!postgres) assertH2FileWhole(h2Base);
        }
    }

    @Test
    void theLogSaysOnceWhenTheDiskFillsThenAtMostOnceAMinuteWithTheCount() {
        long[] now = {0};
        DiskFull diskFull = new DiskFull("H2 file /data/ledgerlink.mv.db", null, () -> now[0]);
        java.sql.SQLException closed = new java.sql.SQLException("The database has been closed", "90098",
                new java.io.IOException("No space left on device"));
        try (LogLines log = new LogLines()) {
            for (int i = 0; i < 100; i++) {   // 100 refusals over 10 s: one line
                diskFull.refused(closed);
                now[0] += Duration.ofMillis(100).toNanos();
            }
            assertEquals(List.of("the disk of the database (H2 file /data/ledgerlink.mv.db) is full (No space left on device): "
                    + "requests that write get 503 with Retry-After until space is freed on its volume, and work resumes by itself "
                    + "then (docs/operations.md, \"A full disk\")"), messages(log));
            now[0] += Duration.ofSeconds(55).toNanos();   // a minute after the first line, the next refusal says how many were
            diskFull.refused(closed);
            assertEquals("the disk of the database (H2 file /data/ledgerlink.mv.db) is still full: 100 writes refused in the last 1 min",
                    messages(log).getLast());
            now[0] += Duration.ofMinutes(2).toNanos();    // nothing refused for longer than a minute: a new episode
            diskFull.refused(new java.sql.SQLException("ERROR: could not extend file \"base/5/16385\": No space left on device\n  Hint: Check "
                    + "free disk space.", "53100"));
            assertTrue(messages(log).getLast().contains(" is full (ERROR: could not extend file \"base/5/16385\": No space left on device): "),
                    messages(log).getLast());
            assertEquals(3, messages(log).size());
        }
    }

    @Test
    void aFullDiskIsToldApartFromOtherFailures() {
        assertTrue(DiskFull.causedBy(new java.sql.SQLException("could not extend file", "53100")));
        assertTrue(DiskFull.causedBy(new IllegalStateException(new java.io.IOException("Disk quota exceeded"))));
        assertTrue(DiskFull.causedBy(new java.sql.SQLTransientConnectionException("Connection is not available", "08000",
                new java.sql.SQLException("Error opening database", "08000", new java.io.IOException("No space left on device")))));
        assertFalse(DiskFull.causedBy(new java.sql.SQLException("duplicate key", "23505")));
        assertFalse(DiskFull.causedBy(new java.io.IOException("Connection reset by peer")));
    }

    /**
     * H2's closed store says nothing of why it closed (the IOException is kept, not chained), and the
     * write that closed it may have been a background one: the pool's failures tell it apart.
     */
    @Test
    void h2sClosedStoreIsTheFullDiskOnlyWhenAFullDiskClosedIt() {
        DiskFull diskFull = new DiskFull("H2 file /data/ledgerlink.mv.db", null, System::nanoTime);
        RuntimeException closed = org.h2.mvstore.DataUtils.newMVStoreException(org.h2.mvstore.DataUtils.ERROR_CLOSED,
                "This store is closed", new java.util.concurrent.atomic.AtomicReference<>());
        java.sql.SQLException closedOverJdbc = new java.sql.SQLException("The database has been closed", "90098");
        assertFalse(diskFull.explains(closed), "a store closed for no known reason (a shutdown) is not a full disk");

        diskFull.observe(new java.sql.SQLException("General error", "HY000",
                new IllegalStateException("Writing to /data/ledgerlink.mv.db failed", new java.io.IOException("No space left on device"))));
        assertTrue(diskFull.explains(closed));
        assertTrue(diskFull.explains(new java.sql.SQLException("wrapped", closedOverJdbc)));
        assertFalse(diskFull.explains(new java.sql.SQLException("duplicate key", "23505")));
        try (LogLines log = new LogLines()) {
            diskFull.refused(closed);
            assertTrue(messages(log).getFirst().contains("is full (No space left on device)"), "the line names the write that failed: " + messages(log));
        }

        diskFull.observe(new java.io.IOException("Input/output error"));   // then another I/O failure closed it
        assertFalse(diskFull.explains(closed));
        assertFalse(diskFull.explains(closedOverJdbc));
    }

    private static List<String> messages(LogLines log) {
        return log.matching(l -> l.logger().endsWith("DiskFull")).stream().map(LogLines.Line::message).toList();
    }

    /** The file closed cleanly, opens with every acknowledged event, reads whole, and every delivery row updates. */
    private void assertH2FileWhole(Path base) throws Exception {
        Path file = Path.of(base + ".mv.db");
        assertTrue(H2CrashRepair.closedCleanly(file), "the server closed the H2 file cleanly after the disk filled: " + file);
        String url = JdbcUrls.normalize("jdbc:h2:file:" + base);
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            Set<Long> stored = new HashSet<>();
            try (ResultSet rs = st.executeQuery("select object_id from events where name = 'invoice.create'")) {
                while (rs.next()) stored.add(rs.getLong(1));
            }
            assertTrue(stored.containsAll(acknowledged), "every acknowledged event is in the file");
            try (ResultSet rs = st.executeQuery("script")) {
                int lines = 0;
                while (rs.next()) lines++;
                assertTrue(lines > 0);
            }
            // A row left changed by a transaction the file no longer knows spins any UPDATE of it for ever
            // (H2 issue #2080): update every delivery row on another thread, with a bound.
            Thread updater = Thread.ofPlatform().daemon().start(() -> {
                try (Statement u = c.createStatement()) {
                    u.executeUpdate("update deliveries set attempts = attempts");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            updater.join(Duration.ofSeconds(60));
            assertFalse(updater.isAlive(), "every delivery row of the file can be updated");
        }
    }

    private void publishUntil(AtomicBoolean stop, TestHttp http, String accountId) {
        while (!stop.get()) {
            long objectId = objectIds.incrementAndGet();
            Phase sent = phase.get();
            TestHttp.Response r = answer(() -> PublishingUnderFaults.publish(http, accountId, objectId, OPERATOR_KEY));
            if (r == null) continue;
            if (r.status() == 202) {
                acknowledged.add(objectId);
                writesAcknowledged.get(sent).incrementAndGet();
            } else if (refused(r, sent, writesRefused)) {
                pause();
            }
        }
    }

    private void refreshUntil(AtomicBoolean stop, TestServer server, Fixtures f, String[] token) {
        while (!stop.get()) {
            Phase sent = phase.get();
            TestHttp.Response r = answer(() -> OAuthFlows.refresh(server, f, token[0]));
            if (r == null) continue;
            if (r.status() == 200) {
                token[0] = r.json().path("refresh_token").asText();
                writesAcknowledged.get(sent).incrementAndGet();
            } else if (refused(r, sent, writesRefused)) {
                pause();
            } else {
                return;   // refused for good: named in unexpected
            }
        }
    }

    private void readUntil(AtomicBoolean stop, TestHttp http, Fixtures f, String accountId, String accessToken) {
        while (!stop.get()) {
            for (String path : List.of("/events/account/" + accountId + "/events/callbacks", "/auth/api/v1/users/me")) {
                Phase sent = phase.get();
                TestHttp.Response r = answer(() -> http.get(path, f.bearer(accessToken)));
                if (r == null) continue;
                if (r.status() == 200) readsAnswered.get(sent).incrementAndGet();
                else if (refused(r, sent, readsRefused)) pause();
            }
            pause();
        }
    }

    /** The documented 503 that names the full disk (counted), or anything else (recorded as unexpected). */
    private boolean refused(TestHttp.Response r, Phase sent, Map<Phase, AtomicLong> count) {
        if (Unavailable.isDocumented(r) && r.json().path("message").asText().contains("no disk space left") && "30".equals(r.header("Retry-After"))) {
            count.get(sent).incrementAndGet();
            return true;
        }
        unexpected.merge(sent + ": " + r.status() + " " + r.body(), 1, Integer::sum);
        return false;
    }

    private TestHttp.Response answer(java.util.function.Supplier<TestHttp.Response> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            unexpected.merge(phase.get() + ": " + e, 1, Integer::sum);
            pause();
            return null;
        }
    }

    private static Map<Phase, AtomicLong> counters() {
        Map<Phase, AtomicLong> m = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) m.put(p, new AtomicLong());
        return m;
    }

    private static void pause() {
        Eventually.sleep(Duration.ofMillis(100));
    }
}
