package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `ledgerlink serve` as a real process: ready line, demo data, CLI beside it on the same database, clean SIGTERM. */
class ServeProcessTest {
    private static final Pattern READY = Pattern.compile("ledgerlink ready on (http://\\S+)");

    @TempDir
    Path dir;

    @Test
    void serveDevStartsWithDemoDataSharesTheDatabaseAndStopsCleanlyOnSigterm() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "serve", "--dev", "--port", "0", "--db", db.url(),
                "--set", "db.user=" + db.user(), "--set", "secrets.key-file=" + dir.resolve("key")));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
        BlockingQueue<String> stderr = drain(p.getErrorStream());
        BlockingQueue<String> stdout = drain(p.getInputStream());
        try {
            String base = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (base == null && System.nanoTime() < deadline) {
                String line = stderr.poll(1, TimeUnit.SECONDS);
                if (line == null) continue;
                Matcher m = READY.matcher(line);
                if (m.find()) base = m.group(1);
            }
            assertTrue(base != null, "no ready line; stderr so far: " + stderr);
            String printed = String.join("\n", stdout);
            assertTrue(printed.contains("Demo data created"), printed);
            assertTrue(printed.contains("client_secret:"), printed);

            TestHttp http = new TestHttp(base);
            assertEquals(200, http.get("/readyz").status());

            // The CLI works on the same database while the server holds it open (H2 included).
            var cli = new dev.ledgerlink.testing.Cli(db);
            var apps = cli.run("apps", "list", "--json");
            assertEquals(0, apps.exitCode(), apps.err());
            assertEquals("Demo Application", apps.json().get("applications").get(0).get("name").asText());

            // SIGTERM as an operator or a service manager sends it (Process.destroy() did not run the
            // shutdown hooks of a child of the surefire JVM here).
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "server did not stop after SIGTERM");
            Thread.sleep(200);
            String after = String.join("\n", stderr);
            assertTrue(after.contains("shutting down"), "exit " + p.exitValue() + "; stderr after SIGTERM: " + after);
        } finally {
            p.destroyForcibly();
        }
    }

    private static BlockingQueue<String> drain(java.io.InputStream in) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        return lines;
    }
}
