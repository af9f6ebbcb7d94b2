package dev.ledgerlink.store;

import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresOnly;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.delivery.Deliveries;
import dev.ledgerlink.delivery.Publishers;
import dev.ledgerlink.delivery.ServerProcess;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.PreviousRelease;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 43 item 3: a rolling upgrade from the previous release (the commit scripts/previous-release
 * names, built once and cached) and back, with both releases' nodes side by side on one PostgreSQL
 * database under publishing and refresh-grant load. What it proves is the rule of docs/operations.md
 * "Upgrading": every migration of this release is expand-only, so the previous release keeps working
 * on the new schema.
 *
 * <ol>
 * <li>Two nodes of the previous release make the schema theirs (V39) and serve; users sign in through
 *     the authorization page, a callback is registered and verified, the load starts.
 * <li>This build's `db migrate` applies its migrations one at a time ({@code --target}); after each,
 *     both old nodes are probed ({@link ReleaseProbe}) and their logs read: the failure names the
 *     migration after which the previous release broke, and what it logged.
 * <li>The old nodes are replaced one at a time (SIGTERM, then a node of this build on the same port,
 *     db.migrate=never); then, the way back, this build's nodes by the previous release's.
 * <li>Every acknowledged event is delivered, no refresh chain broke, every answer was a 2xx, the
 *     documented drain 503 with Retry-After, or a refused connection while a port was closed.
 * </ol>
 * PostgreSQL pass only (testing/PostgresOnly): the nodes of a rolling upgrade share PostgreSQL.
 */
@PostgresOnly
@Heavy
class UpgradeTest {
    private static final String ACCOUNT = "UPG01";
    private static final String CLIENT_ID = "upgradeapp01";
    private static final String CLIENT_SECRET = "upgrade-app-secret-0123456789";
    private static final String REDIRECT_URI = "http://localhost:8000/callback";
    private static final String PASSWORD = "upgrade password";
    private static final int CHAINS = 3;
    /**
     * Quick polling and sweeping, so both releases' background work runs on the new schema during the
     * test too; a drain of a second (the load balancer here is the clients themselves) keeps each
     * replacement short.
     */
    private static final String[] NODE = {"delivery.poll-interval=PT0.2S", "delivery.retry-schedule=PT0.5S,PT1S,PT2S", "retention.interval=PT2S",
            "shutdown.drain=PT1S"};
    private static final String[] THIS_BUILD = {"delivery.poll-interval=PT0.2S", "delivery.retry-schedule=PT0.5S,PT1S,PT2S", "retention.interval=PT2S",
            "shutdown.drain=PT1S", "db.migrate=never"};

    @TempDir
    Path dir;

    @Test
    void previousReleaseNodesKeepServingOnEachMigrationAndAreReplacedOneByOneAndBackLosingNothing() throws Exception {
        Path oldJar = PreviousRelease.jar();
        String release = "the previous release (" + PreviousRelease.commit().substring(0, 7) + ")";
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        Path seed = Files.writeString(dir.resolve("seed.yaml"), seedFile());
        int[] ports = {ServerProcess.freePort(), ServerProcess.freePort()};
        List<String> bases = List.of("http://127.0.0.1:" + ports[0], "http://127.0.0.1:" + ports[1]);
        ServerProcess[] nodes = new ServerProcess[2];
        List<Path> oldLogs = new ArrayList<>();
        try (Receiver receiver = new Receiver(); Receiver probeReceiver = new Receiver()) {
            receiver.answer(r -> new Receiver.Answer(200, Map.of(), Duration.ofMillis(10)));   // attempts in flight when a node stops
            // 1. The previous release's nodes: the first makes the schema and applies the seed (users, account, application).
            nodes[0] = ServerProcess.startJar(oldJar, List.of("--seed", seed.toString()), db, key, log(oldLogs, "old-a"), ports[0], NODE);
            nodes[0].awaitBaseUrl();
            nodes[1] = ServerProcess.startJar(oldJar, List.of(), db, key, log(oldLogs, "old-b"), ports[1], NODE);
            nodes[1].awaitBaseUrl();
            awaitReady(bases.get(0));

            List<JsonNode> chains = new ArrayList<>();
            for (int i = 0; i < CHAINS; i++) {
                try (BrowserSession browser = new BrowserSession(bases.get(i % 2))) {
                    chains.add(authorize(browser, bases.get(i % 2), CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, "chain" + i + "@example.com", PASSWORD));
                }
            }
            long userId = registerVerifiedCallback(bases.get(0), chains.getFirst().get("access_token").asText(), receiver);

            Publishers publishers = new Publishers(ACCOUNT, userId);
            RefreshChains refreshing = new RefreshChains(bases, CLIENT_ID, CLIENT_SECRET);
            ReleaseProbe probe = new ReleaseProbe(ACCOUNT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, "probe@example.com", PASSWORD, probeReceiver);
            List<String> broken = new ArrayList<>();
            try {
                phase(publishers, refreshing, release + " on its own schema");
                for (int n = 0; n < 2; n++) publishers.publishTo("node" + n, bases.get(n), 2);
                for (int i = 0; i < CHAINS; i++) refreshing.start(Integer.toString(i), chains.get(i).get("refresh_token").asText());
                awaitProgress(publishers, refreshing);
                checkNodes(broken, release + " before any migration", probe, bases, oldLogs);

                // 2. This build's migrations, one at a time, the old nodes serving throughout.
                Cli cli = new Cli(db);
                List<String> pending = names(cli.run("db", "status", "--json").json().get("pending"));
                for (String migration : pending) {
                    Cli.Result migrated = cli.run("db", "migrate", "--target", migration.substring(1, migration.indexOf("__")), "--json");
                    assertEquals(0, migrated.exitCode(), "db migrate to " + migration + ": " + migrated.out() + migrated.err());
                    phase(publishers, refreshing, release + " after " + migration);
                    awaitProgress(publishers, refreshing);
                    checkNodes(broken, release + " on the schema after " + migration, probe, bases, oldLogs);
                }
                if (!broken.isEmpty()) {
                    throw new AssertionError("this release's migrations are not expand-only: " + release + " fails on the new schema; the first "
                            + "migration named is the one that broke it (docs/operations.md, \"Upgrading\"):\n" + String.join("\n", broken));
                }

                // 3. The old nodes replaced one at a time by this build's, then the way back.
                for (int i = 0; i < 2; i++) {
                    int n = i;
                    nodes[n] = replace(nodes[n], () -> ServerProcess.start(db, key, dir.resolve("new-" + n + ".log"), ports[n], THIS_BUILD), n);
                    phase(publishers, refreshing, "node " + n + " replaced by this build");
                    awaitProgress(publishers, refreshing);
                    checkNodes(broken, "node " + n + " of this build beside " + (n == 0 ? "an old one" : "another"), probe, List.of(bases.get(n)), List.of());
                }
                for (int i = 0; i < 2; i++) {
                    int n = i;
                    String logName = "old-again-" + n;
                    nodes[n] = replace(nodes[n], () -> ServerProcess.startJar(oldJar, List.of(), db, key, log(oldLogs, logName), ports[n], NODE), n);
                    phase(publishers, refreshing, "the way back: node " + n + " of " + release + " on the migrated schema");
                    awaitProgress(publishers, refreshing);
                    checkNodes(broken, release + " back on the migrated schema (node " + n + ")", probe, List.of(bases.get(n)), oldLogs);
                }
            } finally {
                publishers.close();
                refreshing.close();
            }
            assertEquals(List.of(), broken, "steps that failed");
            assertEquals(List.of(), List.copyOf(publishers.failures), "publishes answered other than 202, the documented 503 and a refused connection");
            assertEquals(List.of(), List.copyOf(refreshing.failures), "refresh chains broken");
            Set<Long> acknowledged = Set.copyOf(publishers.acknowledged);
            try (var count = Database.connect(db.url(), db.user(), db.password(), 1, null)) {
                List<Long> unanswered = publishers.closedUnanswered.isEmpty() ? List.of() : count.jdbi().withHandle(h ->
                        h.createQuery("select object_id from events where object_id in (<ids>)").bindList("ids", List.copyOf(publishers.closedUnanswered))
                                .mapTo(Long.class).list());
                assertEquals(List.of(), unanswered, "requests whose connection closed before an answer were handled all the same");
                Deliveries.await("every acknowledged event delivered (" + acknowledged.size() + ")", () -> received(receiver).containsAll(acknowledged));
                long dropped = count.jdbi().withHandle(h -> h.createQuery("select count(*) from deliveries where state = 'dropped'").mapTo(Long.class).one());
                assertEquals(0, dropped, "deliveries dropped");
            }
            System.out.printf("UpgradeTest: %s; %d events acknowledged and delivered, %d refresh grants, %d answered 503, %d refused connections%n",
                    release, acknowledged.size(), refreshing.refreshed.get(), publishers.unavailable.get(), publishers.refused.get());
        } finally {
            for (ServerProcess node : nodes) if (node != null) node.close();
        }
    }

    /** SIGTERM to {@code node}, a clean exit, and its successor ready on the same port. */
    private static ServerProcess replace(ServerProcess node, java.util.function.Supplier<ServerProcess> successor, int n) throws Exception {
        node.sigterm();
        assertEquals(0, node.awaitExit(), "node " + n + " exit status after SIGTERM; log " + node.log());
        ServerProcess next = successor.get();
        next.awaitBaseUrl();
        return next;
    }

    /** The probe on each of {@code bases}, and the ERROR lines and failed sweeps the old nodes logged since the last check. */
    private static void checkNodes(List<String> broken, String when, ReleaseProbe probe, List<String> bases, List<Path> logs) throws IOException {
        for (String base : bases) for (String problem : probe.run(base)) broken.add(when + ", at " + base + ": " + problem);
        for (Path log : logs) {
            if (!Files.exists(log)) continue;
            List<String> lines = Files.readAllLines(log);
            int seen = LOG_LINES_SEEN.getOrDefault(log, 0);
            for (int i = Math.min(seen, lines.size()); i < lines.size(); i++) {
                String line = lines.get(i);
                if (!line.contains(" ERROR ") && !(line.contains("retention rule") && line.contains("failed"))) continue;
                // The line and what explains it: the exception's messages (the SQL the old release sent, PostgreSQL's answer).
                List<String> why = lines.subList(i + 1, Math.min(lines.size(), i + 40)).stream()
                        .filter(l -> !l.startsWith("\tat ") && !l.startsWith("\t... ") && !l.matches("\\d{4}-.*")).limit(6).toList();
                broken.add(when + ", " + log.getFileName() + ": " + line + (why.isEmpty() ? "" : "\n    " + String.join("\n    ", why)));
            }
            LOG_LINES_SEEN.put(log, lines.size());
        }
    }

    private static final Map<Path, Integer> LOG_LINES_SEEN = new java.util.concurrent.ConcurrentHashMap<>();

    private Path log(List<Path> logs, String name) {
        Path p = dir.resolve(name + ".log");
        logs.add(p);
        return p;
    }

    private static void phase(Publishers publishers, RefreshChains refreshing, String phase) {
        publishers.phase = phase;
        refreshing.phase = phase;
    }

    /** More events acknowledged and more refresh grants made since now: the load goes on in this step. */
    private static void awaitProgress(Publishers publishers, RefreshChains refreshing) {
        int acked = publishers.acknowledged.size();
        long refreshed = refreshing.refreshed.get();
        Deliveries.await("100 more events acknowledged and 30 more refresh grants (failures so far: " + publishers.failures + refreshing.failures + ")",
                () -> publishers.acknowledged.size() >= acked + 100 && refreshing.refreshed.get() >= refreshed + 30
                        || !refreshing.failures.isEmpty() && publishers.acknowledged.size() >= acked + 100);
    }

    /** Signs in through the authorization page and exchanges the code: the token response. */
    static JsonNode authorize(BrowserSession browser, String base, String clientId, String clientSecret, String redirectUri, String email, String password) {
        browser.get("/oauth/authorize?" + BrowserSession.form(Map.of("client_id", clientId, "response_type", "code", "redirect_uri", redirectUri, "state", "s1")));
        browser.logIn(email, password);
        if (browser.last.status() == 200) browser.authorize();
        if (browser.last.status() != 303) throw new AssertionError("the authorization page answered " + browser.last.status() + ": " + browser.last.body());
        String code = browser.redirectParams().get("code");
        try (TestHttp http = new TestHttp(base)) {
            TestHttp.Response r = http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                    "client_id", clientId, "client_secret", clientSecret, "code", code, "redirect_uri", redirectUri)));
            if (r.status() != 200) throw new AssertionError("the code exchange answered " + r.status() + ": " + r.body());
            return r.json();
        }
    }

    /** An invoice callback registered and verified over the API; returns the registering user's id. */
    private static long registerVerifiedCallback(String base, String accessToken, Receiver receiver) {
        try (TestHttp http = new TestHttp(base)) {
            String[] bearer = {"Authorization", "Bearer " + accessToken};
            String callbacks = "/events/account/" + ACCOUNT + "/events/callbacks";
            TestHttp.Response registered = http.postJson(callbacks, "{\"callback\": {\"event\": \"invoice\", \"uri\": \"" + receiver.uri() + "\"}}", bearer);
            assertEquals(200, registered.status(), registered.body());
            long id = registered.json().at("/response/result/callback/callbackid").asLong();
            String code = receiver.next("callback.verify").param("verifier");
            assertEquals(200, http.putJson(callbacks + "/" + id, "{\"callback\": {\"verifier\": \"" + code + "\"}}", bearer).status());
            return http.get("/auth/api/v1/users/me", bearer).json().at("/response/id").asLong();
        }
    }

    private static void awaitReady(String base) {
        try (TestHttp http = new TestHttp(base)) {
            Deliveries.await("the seeded node ready", () -> http.get("/readyz").status() == 200);
        }
    }

    private static Set<Long> received(Receiver receiver) {
        return receiver.requests.stream().filter(r -> "invoice.create".equals(r.param("name")))
                .map(r -> Long.parseLong(r.param("object_id"))).collect(Collectors.toSet());
    }

    private static List<String> names(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private static String seedFile() {
        StringBuilder s = new StringBuilder("users:\n");
        List<String> emails = new ArrayList<>();
        for (int i = 0; i < CHAINS; i++) emails.add("chain" + i + "@example.com");
        emails.add("probe@example.com");
        for (String e : emails) s.append("  - {email: ").append(e).append(", password: \"").append(PASSWORD).append("\"}\n");
        s.append("accounts:\n  - account_id: ").append(ACCOUNT).append("\n    name: Upgrade Books\n    members: [")
                .append(emails.stream().map(e -> "{user: " + e + "}").collect(Collectors.joining(", "))).append("]\n");
        s.append("applications:\n  - name: Upgrade App\n    client_id: ").append(CLIENT_ID).append("\n    client_secret: ").append(CLIENT_SECRET)
                .append("\n    redirect_uris: [\"").append(REDIRECT_URI).append("\"]\n    scopes: [user:profile:read, user:invoices:read, user:clients:read]\n");
        return s.toString();
    }
}
