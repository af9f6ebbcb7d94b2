package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.ChildJvm;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `ledgerlink serve` as a real process: ready line, demo data, CLI beside it on the same database, clean SIGTERM. */
@FrontEnd
@Heavy
class ServeProcessTest {
    private static final Pattern READY = Pattern.compile("ledgerlink ready on (http://\\S+)");

    @TempDir
    Path dir;

    @Test
    void serveDevStartsWithDemoDataSharesTheDatabaseAndStopsCleanlyOnSigterm() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        Serving s = serve(db);
        Process p = s.process();
        BlockingQueue<String> stderr = s.stderr();
        try {
            String base = s.base();
            String printed = stdoutOnceItHas(s, "client_secret:");
            assertTrue(printed.contains("Demo data created"), printed);
            assertTrue(printed.contains("client_secret:"), printed);

            TestHttp http = new TestHttp(base);
            assertEquals(200, http.get("/readyz").status());

            // The CLI works on the same database while the server holds it open (H2 included), with the server's key file.
            var cli = new dev.ledgerlink.testing.Cli(db);
            var apps = cli.run("apps", "list", "--json", "--set", "secrets.key-file=" + dir.resolve("key"));
            assertEquals(0, apps.exitCode(), apps.err());
            assertEquals("Demo Application", apps.json().get("applications").get(0).get("name").asText());

            // SIGTERM as an operator or a service manager sends it (Process.destroy() did not run the
            // shutdown hooks of a child of the surefire JVM here).
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "server did not stop after SIGTERM");
            Thread.sleep(200);
            String after = String.join("\n", stderr);
            assertTrue(after.contains("shutting down"), "exit " + p.exitValue() + "; stderr after SIGTERM: " + after);
            assertEquals(0, p.exitValue(), "a stop on SIGTERM is a clean exit: " + after);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void serveDevWithASeedAppliesItBeforeReadyInsteadOfDemoData() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        Path seed = java.nio.file.Files.writeString(dir.resolve("seed.yaml"), """
                users: [{email: dev@example.com, password: "sandbox password"}]
                accounts: [{account_id: SBX01, name: Sandbox Books, members: [{user: dev@example.com}]}]
                applications:
                  - {name: App, client_id: sandboxapp01, client_secret: sandbox-app-secret,
                     redirect_uris: ["http://localhost:8000/callback"], scopes: [user:profile:read]}
                """);
        Serving s = serve(db, "--seed", seed.toString());
        Process p = s.process();
        try {
            String base = s.base();
            String printed = stdoutOnceItHas(s, "seed: 4 created");
            assertTrue(printed.contains("seed: 4 created, 0 already in place"), printed);
            assertTrue(!printed.contains("Demo data created"), "a seeded database gets no demo data: " + printed);
            // the fixed client credentials authenticate (revocation answers 200 only to an authenticated client)
            var revoke = new TestHttp(base).postForm("/auth/oauth/revoke", "token=x", "Authorization",
                    "Basic " + java.util.Base64.getEncoder().encodeToString("sandboxapp01:sandbox-app-secret".getBytes(StandardCharsets.UTF_8)));
            assertEquals(200, revoke.status(), revoke.body());
        } finally {
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
        }
    }

    /**
     * Issue 34: /readyz answered 200 before the seed was applied. A script polls it from the moment
     * the process starts (on a port the test chose, so before any ready line); its first 200 must
     * mean the seeded user can sign in on the authorization page and the seeded client gets tokens.
     */
    @Test
    void readyzAnswers200OnlyOnceTheSeedIsInPlace() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        StringBuilder users = new StringBuilder("users:\n");
        for (int i = 0; i < 12; i++) users.append("  - {email: dev").append(i).append("@example.com, password: \"sandbox password ").append(i).append("\"}\n");
        Path seed = java.nio.file.Files.writeString(dir.resolve("seed.yaml"), users + """
                accounts: [{account_id: SBX01, name: Sandbox Books, members: [{user: dev11@example.com}]}]
                applications:
                  - {name: App, client_id: sandboxapp01, client_secret: sandbox-app-secret,
                     redirect_uris: ["http://localhost:8000/callback"], scopes: [user:profile:read]}
                """);
        int port;
        try (var socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port;
        Process p = start(db, "--port", Integer.toString(port), "--seed", seed.toString());
        BlockingQueue<String> stderr = ChildJvm.lines(p.getErrorStream());
        ChildJvm.lines(p.getInputStream());
        TestHttp http = new TestHttp(base);
        try {
            // generous: a cold JVM start on a loaded 2-core machine (a hang, not a timing check)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);   // a whole JVM start, seed included, at load ~50
            int status = 0;
            String lastBody = "";
            while (status != 200) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline,
                        "no 200 from /readyz (alive: " + p.isAlive() + "), last: " + lastBody + "; stderr: " + stderr);
                try {
                    var r = http.get("/readyz");
                    status = r.status();
                    lastBody = r.body();
                    if (status == 503) assertTrue(r.body().contains("seed"), "a 503 before the seed names it: " + r.body());
                } catch (java.io.UncheckedIOException notListeningYet) {
                    Thread.sleep(20);
                }
            }
            // At once, nothing waited for: the last seeded user signs in and the seeded client exchanges the code.
            try (var browser = new dev.ledgerlink.oauth.BrowserSession(base)) {
                var page = browser.get("/oauth/authorize?" + dev.ledgerlink.oauth.BrowserSession.form(java.util.Map.of(
                        "client_id", "sandboxapp01", "redirect_uri", "http://localhost:8000/callback", "response_type", "code")));
                assertEquals(200, page.status(), page.body());
                browser.logIn("dev11@example.com", "sandbox password 11");
                browser.authorize();
                String code = browser.redirectParams().get("code");
                var token = http.postForm("/auth/oauth/token", dev.ledgerlink.oauth.BrowserSession.form(java.util.Map.of(
                        "grant_type", "authorization_code", "code", code, "redirect_uri", "http://localhost:8000/callback",
                        "client_id", "sandboxapp01", "client_secret", "sandbox-app-secret")));
                assertEquals(200, token.status(), token.body());
            }
        } finally {
            http.close();
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
        }
    }

    /** A started `serve --dev` process, its output so far, and the address of its ready line. */
    private record Serving(Process process, BlockingQueue<String> stdout, BlockingQueue<String> stderr, String base) {}

    private Serving serve(TestDatabases.TestDb db, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0"));
        args.addAll(List.of(more));
        Process p = start(db, args.toArray(String[]::new));
        BlockingQueue<String> stderr = ChildJvm.lines(p.getErrorStream());
        BlockingQueue<String> stdout = ChildJvm.lines(p.getInputStream());
        String base = null;
        List<String> seen = new ArrayList<>();
        // generous: a cold JVM start on a loaded 2-core machine (a hang, not a timing check)
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (base == null && System.nanoTime() < deadline) {
            String line = stderr.poll(1, TimeUnit.SECONDS);
            if (line == null) continue;
            seen.add(line);
            Matcher m = READY.matcher(line);
            if (m.find()) base = m.group(1);
        }
        if (base == null) {
            p.destroyForcibly();
            throw new AssertionError("no ready line within 5 minutes (alive: " + p.isAlive() + "); stderr: " + seen + ", stdout: " + stdout);
        }
        return new Serving(p, stdout, stderr, base);
    }

    /** `serve --dev` over {@code db} with {@code more} options; the caller drains its output. */
    private Process start(TestDatabases.TestDb db, String... more) throws java.io.IOException {
        // On PostgreSQL the key is the operator's to give (no node makes one); on H2 serve makes this file for its new database.
        if (TestDatabases.postgres() && !java.nio.file.Files.exists(dir.resolve("key"))) {
            java.nio.file.Files.writeString(dir.resolve("key"), TestServer.keyOf(db));
        }
        List<String> cmd = new ArrayList<>(ChildJvm.command(List.of(), Main.class.getName()));
        cmd.addAll(List.of("serve", "--dev", "--db", db.url(),
                "--set", "db.user=" + db.user(), "--set", "secrets.key-file=" + dir.resolve("key")));
        for (String s : TestServer.CHEAP_ARGON2_SETTINGS) cmd.addAll(List.of("--set", s));   // as in-process test servers in dev mode
        cmd.addAll(List.of(more));
        return new ProcessBuilder(cmd).directory(dir.toFile()).start();
    }

    /**
     * Standard output so far, once it holds {@code text}: the process prints it before its ready line,
     * but stdout and stderr are read by separate threads, so it may reach the queue a moment later.
     * Bounded (a hang, not a timing check); the caller's assertion reports what was printed.
     */
    private static String stdoutOnceItHas(Serving s, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String printed = String.join("\n", s.stdout());
        while (!printed.contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            printed = String.join("\n", s.stdout());
        }
        return printed;
    }
}
