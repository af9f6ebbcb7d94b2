package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.cli.Main;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.ChildJvm;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresOnly;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, clock skew between nodes: two servers in processes of their own whose clocks are seven
 * minutes ahead and seven minutes behind (Debian's faketime, scripts/ensure-faketime) share
 * PostgreSQL with an in-process server on the machine's clock, under publishing and refresh load.
 * Every node reads the database's clock (store.ServiceClock), so: each message is sent exactly twice
 * (its first attempt is answered 503, its retry 200): a node seven minutes ahead would otherwise
 * take over every lease still held by another and send it again; none is stuck (a retry due time
 * written seven minutes ahead would otherwise wait seven minutes); tokens minted by the skewed
 * nodes carry the database's time; and a refresh token replayed at once on the node ahead is only
 * refused, within the replay window, not taken as stolen (which would revoke the grant).
 * The database's clock is PostgreSQL's: a PostgreSQL schema whichever pass runs it; once, in the PostgreSQL pass (@PostgresOnly).
 */
@PostgresOnly
@Heavy
class ClockSkewTest {
    private static final String KEY = "clock-skew-test-operator-key-0123456789";
    private static final int EVENTS_PER_NODE = 30;
    private static final int CHAINS = 6;
    private static final int REFRESHES = 9;
    private static final List<String> SETTINGS = List.of("delivery.retry-schedule=PT1S,PT1S,PT1S,PT1S,PT1S,PT1S", "delivery.poll-interval=PT0.2S");

    @TempDir
    Path dir;

    @Test
    void nodesMinutesAheadAndBehindSendEachMessageOnceAndKeepTheTokenRules() throws Exception {
        ensureFaketime();
        TestDatabases.TestDb db = TestDatabases.freshPostgres();   // the database's clock is PostgreSQL's, whichever pass runs this
        String secrets = SecretBox.newKeyBase64();
        Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();
        List<Process> nodes = new ArrayList<>();
        try (TestServer a = TestServer.start(db, b -> {
                 b.set(Setting.SECRETS_KEY, secrets).set(Setting.OPERATOR_KEY, KEY);
                 SETTINGS.forEach(b::set);
                 return b;
             });
             var ticking = a.clock.followRealTime();
             Receiver receiver = new Receiver()) {
            Fixtures f = Fixtures.create(a);
            long callbackId = f.verified("invoice", receiver).id();
            f.verificationsRecorded(callbackId);
            // Every message's first attempt fails, the next succeeds; answers take a moment, so leases are held while others claim.
            receiver.clear();
            receiver.answer(r -> {
                int n = sent.computeIfAbsent(r.header("X-Service-Event-Id"), k -> new AtomicInteger()).incrementAndGet();
                return new Receiver.Answer(n == 1 ? 503 : 200, Map.of(), Duration.ofMillis(150));
            });

            Node ahead = Node.start(dir, db, secrets, "+7m", nodes);
            Node behind = Node.start(dir, db, secrets, "-7m", nodes);
            List<TestHttp> all = List.of(a.http, ahead.http(), behind.http());
            for (Node n : List.of(ahead, behind)) n.awaitReady();
            assertTrue(ahead.log().contains("ahead of the database's"), "the node ahead measured its offset: " + ahead.log());
            assertTrue(behind.log().contains("behind the database's"), "the node behind measured its offset: " + behind.log());

            List<TokenPair> chains = new ArrayList<>();
            for (int i = 0; i < CHAINS; i++) {
                // a user each: only the latest refresh token of a user and application is live
                var user = a.services().users().create("chain" + i + "@example.com", "correct horse battery staple " + i, "Chain", Integer.toString(i));
                chains.add(a.services().tokens().issue(user.id(), f.app().id(), java.util.Set.copyOf(Fixtures.SCOPES)));
            }
            ExecutorService load = Executors.newVirtualThreadPerTaskExecutor();
            List<Future<?>> work = new ArrayList<>();
            for (int n = 0; n < all.size(); n++) {
                TestHttp http = all.get(n);
                int node = n;
                work.add(load.submit(() -> {
                    for (int i = 1; i <= EVENTS_PER_NODE; i++) {
                        var r = http.postJson("/internal/v1/events", "{\"name\": \"invoice.create\", \"account_id\": \"" + f.account().accountId()
                                + "\", \"object_id\": " + (node * 1000 + i) + ", \"user_id\": " + f.user().id() + "}", "Authorization", "Bearer " + KEY);
                        assertEquals(202, r.status(), r.body());
                    }
                    return null;
                }));
            }
            for (int c = 0; c < CHAINS; c++) {
                int chain = c;
                work.add(load.submit(() -> {
                    String used = null;
                    String token = chains.get(chain).refreshToken();
                    for (int i = 0; i < REFRESHES; i++) {
                        var r = refreshAt(all.get((chain + i) % all.size()), f, token);
                        assertEquals(200, r.status(), "refresh " + i + " of chain " + chain + ": " + r.body());
                        Instant created = Instant.ofEpochSecond(r.json().get("created_at").asLong());
                        assertTrue(Duration.between(created, Instant.now()).abs().compareTo(Duration.ofMinutes(2)) < 0,
                                "tokens carry the database's time, not a skewed node's: created_at " + created);
                        used = token;
                        token = r.json().get("refresh_token").asText();
                    }
                    // The token just used, replayed at once on the node seven minutes ahead: within the window, only refused.
                    var replay = refreshAt(ahead.http(), f, used);
                    assertEquals(400, replay.status(), replay.body());
                    var next = refreshAt(behind.http(), f, token);
                    assertEquals(200, next.status(), "the grant was not revoked as stolen: " + next.body());
                    return null;
                }));
            }
            for (Future<?> w : work) w.get(5, TimeUnit.MINUTES);
            load.shutdown();

            int messages = EVENTS_PER_NODE * all.size();
            Eventually.await("every message delivered (none stuck)", Duration.ofMinutes(3), () -> pending(a, callbackId) == 0);
            assertEquals(messages, sent.size(), "every message reached the receiver");
            Map<String, Integer> notTwice = new java.util.TreeMap<>();
            sent.forEach((id, n) -> { if (n.get() != 2) notTwice.put(id, n.get()); });
            assertEquals(Map.of(), notTwice, "each message sent exactly twice (a 503, then its retry): none sent again by a node that misread a lease");
            assertEquals(messages, delivered(a, callbackId));
        } finally {
            for (Process p : nodes) {
                // faketime runs the JVM as its child: stop the JVM, then faketime ends with it
                List<ProcessHandle> jvms = p.toHandle().descendants().toList();
                for (ProcessHandle jvm : jvms) new ProcessBuilder("kill", "-TERM", Long.toString(jvm.pid())).start().waitFor();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    jvms.forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            }
        }
    }

    private static TestHttp.Response refreshAt(TestHttp node, Fixtures f, String refreshToken) {
        return node.postJson("/auth/oauth/token", dev.ledgerlink.oauth.OAuthFlows.json(Map.of("grant_type", "refresh_token",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "refresh_token", refreshToken)));
    }

    private static long pending(TestServer s, long callbackId) {
        return s.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from deliveries where callback_id = :c and state = 'pending'").bind("c", callbackId).mapTo(Long.class).one());
    }

    private static long delivered(TestServer s, long callbackId) {
        return s.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from deliveries where callback_id = :c and kind = 'event' and state = 'delivered'").bind("c", callbackId).mapTo(Long.class).one());
    }

    /** Installs Debian's faketime when missing, as scripts/test does. */
    private static void ensureFaketime() throws Exception {
        Path script = Path.of("..", "scripts", "ensure-faketime").toAbsolutePath().normalize();
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0, "scripts/ensure-faketime failed: " + out);
    }

    /** A `serve --dev` process on the shared database whose clock is {@code skew} off (faketime's syntax: +7m). */
    private record Node(Process process, BlockingQueue<String> stderr, TestHttp http) {
        static Node start(Path dir, TestDatabases.TestDb db, String secrets, String skew, List<Process> started) throws Exception {
            int port;
            try (var socket = new java.net.ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            List<String> cmd = new ArrayList<>(List.of("faketime", "-f", skew));
            cmd.addAll(ChildJvm.command(List.of(), Main.class.getName()));
            cmd.addAll(List.of("serve", "--dev", "--port", Integer.toString(port), "--db", db.url(), "--set", "db.user=" + db.user(),
                    "--set", "secrets.key=" + secrets, "--set", "events.operator-key=" + KEY, "--set", "db.pool-size=4"));
            for (String s : TestServer.CHEAP_ARGON2_SETTINGS) cmd.addAll(List.of("--set", s));
            for (String s : SETTINGS) cmd.addAll(List.of("--set", s));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
            pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");   // elapsed time stays true: only the wall clock is off
            Process p = pb.start();
            started.add(p);
            BlockingQueue<String> stderr = ChildJvm.lines(p.getErrorStream());
            ChildJvm.lines(p.getInputStream());
            return new Node(p, stderr, new TestHttp("http://127.0.0.1:" + port));
        }

        /** Generous: a cold JVM start on a loaded 2-core machine (a hang, not a timing check). */
        void awaitReady() {
            try {
                Eventually.await("the node with a skewed clock is ready", Duration.ofMinutes(6), () -> {
                    assertTrue(process.isAlive(), "the node stopped");
                    try {
                        return http.get("/readyz").status() == 200;
                    } catch (java.io.UncheckedIOException notYet) {
                        return false;
                    }
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; its log: " + log(), e);
            }
        }

        String log() {
            return String.join("\n", stderr);
        }
    }
}
