package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.cli.Main;
import dev.ledgerlink.testing.H2Only;
import dev.ledgerlink.testing.Heavy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 after a crash ({@link H2CrashRepair}). The damaged database is the one a crash test left in a CI
 * run (three kill -9s on H2 2.5.252): one pending delivery row no UPDATE can take. Every probe that
 * may hit that row runs in a child JVM, because H2's spin on it cannot be stopped from inside.
 * Runs in the H2 pass only (@H2Only): it works on H2 files of its own.
 */
@H2Only
@Heavy
class H2CrashRepairTest {
    private static final String OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";

    @Test
    void theDamagedDatabaseHasARowNoUpdateCanTakeAndTheRebuildFreesItKeepingEveryRow(@TempDir Path dir) throws Exception {
        // Before: on a copy of its own, the probe updates 291-305 and then spins on 306 (if an H2
        // upgrade fixes this, the test says so here, and H2CrashRepair may no longer be needed). The
        // copy is thrown away: a file whose process was killed in that spin can be opened once but not
        // always twice (seen: "File corrupted while reading record" on the second open; the rebuild,
        // which opens it once, is what the product does then, see the test below).
        Path spinning = dir.resolve("spinning");
        Files.createDirectories(spinning);
        copyDamaged(spinning.resolve("damaged.mv.db"));
        Child before = Child.start(ProbeMain.class, "jdbc:h2:file:" + spinning.resolve("damaged") + OPTIONS);
        before.awaitLine("305 -> 1", 60);
        Thread.sleep(3_000);
        assertFalse(before.lines().contains("306 -> 1"), "row 306 was updatable: " + before.lines());
        assertTrue(before.process().isAlive(), "the probe ended: " + before.lines());
        before.process().destroyForcibly().waitFor();

        copyDamaged(dir.resolve("damaged.mv.db"));
        String url = "jdbc:h2:file:" + dir.resolve("damaged") + OPTIONS;
        long[] rowsBefore = counts(url);
        long identityBase = identityBase(url);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "db", "rebuild", "--db", url, "--json");
        assertEquals(0, exit, out + " " + err);
        assertTrue(out.toString().contains("\"kept_as\""), out.toString());
        assertTrue(Files.isRegularFile(dir.resolve("damaged.before-rebuild.mv.db")), "the file as it was is kept");
        assertFalse(Files.exists(dir.resolve("damaged.rebuild.sql")), "the script (every row, hashes too) is not left behind");

        // After: every row updates, and every row that was readable is still there.
        Child after = Child.start(ProbeMain.class, url);
        assertTrue(after.process().waitFor(60, TimeUnit.SECONDS), "the probe did not finish after the rebuild: " + after.lines());
        assertEquals(0, after.process().exitValue(), after.lines().toString());
        assertTrue(after.lines().contains("322 -> 1"), after.lines().toString());
        long[] rowsAfter = counts(url);
        assertEquals(List.of(rowsBefore[0], rowsBefore[1], rowsBefore[2]), List.of(rowsAfter[0], rowsAfter[1], rowsAfter[2]));
        // The identity counters came along: no id the old file handed out is handed out again.
        assertEquals(identityBase, identityBase(url));
    }

    @Test
    void aServerKilledWhileSpinningOnTheDamagedRowIsRebuiltAtTheNextOpen(@TempDir Path dir) throws Exception {
        // What the watchdog leads to: the process stuck on row 306 (with the product's URL settings) is
        // killed, and the next open rebuilds the file from one read of it.
        copyDamaged(dir.resolve("damaged.mv.db"));
        String url = JdbcUrls.normalize("jdbc:h2:file:" + dir.resolve("damaged"));
        Child stuck = Child.start(ProbeMain.class, url);
        stuck.awaitLine("305 -> 1", 60);
        Thread.sleep(2_000);
        assertTrue(stuck.process().isAlive() && !stuck.lines().contains("306 -> 1"), stuck.lines().toString());
        stuck.process().destroyForcibly().waitFor();
        assertFalse(H2CrashRepair.closedCleanly(dir.resolve("damaged.mv.db")));

        assertTrue(H2CrashRepair.afterUncleanShutdown(url, "sa", "").isPresent());
        Child after = Child.start(ProbeMain.class, url);
        assertTrue(after.process().waitFor(60, TimeUnit.SECONDS), "the probe did not finish after the rebuild: " + after.lines());
        assertTrue(after.lines().contains("322 -> 1"), after.lines().toString());
        assertEquals(counts(url)[0], counts(url)[0], "opens again and again");
    }

    @Test
    void aDatabaseKilledMidWriteIsRebuiltBeforeTheNextOpenWithEveryCommittedRow(@TempDir Path dir) throws Exception {
        String url = JdbcUrls.normalize("jdbc:h2:file:" + dir.resolve("crashed"));
        Path file = dir.resolve("crashed.mv.db");
        Child writer = Child.start(WriterMain.class, url);
        writer.awaitCommits(300);
        writer.process().destroyForcibly().waitFor();   // SIGKILL: no shutdown hook, no close
        List<Long> committed = writer.committed();
        assertFalse(H2CrashRepair.closedCleanly(file), "H2 left its clean-shutdown mark after a kill -9");

        var rebuilt = H2CrashRepair.afterUncleanShutdown(url, "sa", "");
        assertTrue(rebuilt.isPresent(), "a file left open by a killed process is rebuilt");
        assertTrue(H2CrashRepair.closedCleanly(file));
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            List<Long> present = ids(c);
            assertTrue(present.containsAll(committed), "committed rows missing after the rebuild: "
                    + committed.stream().filter(id -> !present.contains(id)).toList());
            long max = present.stream().mapToLong(Long::longValue).max().orElseThrow();
            try (Statement st = c.createStatement()) {
                st.executeUpdate("insert into t (v) values ('after')");
            }
            assertTrue(single(c, "select max(id) from t") > max, "an id was handed out a second time");
        }
        assertTrue(H2CrashRepair.afterUncleanShutdown(url, "sa", "").isEmpty(), "a cleanly closed file is left as it is");
    }

    @Test
    void aRebuildThatCannotBeMadeLeavesTheFileAsItWasAndTheDatabaseOpens(@TempDir Path dir) throws Exception {
        String url = JdbcUrls.normalize("jdbc:h2:file:" + dir.resolve("crashed"));
        Child writer = Child.start(WriterMain.class, url);
        writer.awaitCommits(100);
        writer.process().destroyForcibly().waitFor();
        List<Long> committed = writer.committed();
        // Where the script would go, a directory that cannot be replaced: the rebuild fails at its first step.
        Files.createDirectories(dir.resolve("crashed.rebuild.sql").resolve("in-the-way"));
        byte[] before = Files.readAllBytes(dir.resolve("crashed.mv.db"));

        assertTrue(H2CrashRepair.afterUncleanShutdown(url, "sa", "").isEmpty(), "no rebuild was made");
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(dir.resolve("crashed.mv.db"))), "the file is untouched");
        assertFalse(Files.exists(dir.resolve("crashed.rebuild.mv.db")));
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            assertTrue(ids(c).containsAll(committed), "opened as it is, with its committed rows");
        }
    }

    @Test
    void aFileAnotherProcessHasOpenIsLeftAlone(@TempDir Path dir) throws Exception {
        String url = JdbcUrls.normalize("jdbc:h2:file:" + dir.resolve("live"));
        Child writer = Child.start(WriterMain.class, url);
        try {
            writer.awaitCommits(50);
            assertFalse(H2CrashRepair.closedCleanly(dir.resolve("live.mv.db")));
            assertTrue(H2CrashRepair.afterUncleanShutdown(url, "sa", "").isEmpty());
            assertThrows(H2CrashRepair.InUse.class, () -> H2CrashRepair.rebuild(url, "sa", ""));
            assertFalse(Files.exists(dir.resolve("live.before-rebuild.mv.db")));
            int seen = writer.committed().size();
            writer.awaitCommits(seen + 50);   // and the owner carries on writing
        } finally {
            writer.process().destroyForcibly().waitFor();
        }
    }

    @Test
    void aFileThisProcessHasOpenIsNeverRebuilt(@TempDir Path dir) {
        // H2 shares one engine per file within a JVM, so its exclusive open would not refuse here.
        String url = "jdbc:h2:file:" + dir.resolve("here");
        try (Database first = Database.open(url, null, null, 2, null)) {
            assertFalse(H2CrashRepair.closedCleanly(dir.resolve("here.mv.db")), "the migrations wrote to it");
            assertTrue(H2CrashRepair.afterUncleanShutdown(JdbcUrls.normalize(url), "sa", "").isEmpty());
            assertThrows(H2CrashRepair.InUse.class, () -> H2CrashRepair.rebuild(url, "sa", ""));
            try (Database second = Database.open(url, null, null, 2, null)) {
                assertTrue(second.isReachable());
            }
            assertTrue(H2CrashRepair.afterUncleanShutdown(JdbcUrls.normalize(url), "sa", "").isEmpty(), "still open by the first");
            assertTrue(first.isReachable());
        }
        assertFalse(Files.exists(dir.resolve("here.before-rebuild.mv.db")));
    }

    @Test
    void aDatabaseClosedCleanlyIsNotRebuilt(@TempDir Path dir) {
        String url = "jdbc:h2:file:" + dir.resolve("clean");
        Database.open(url, null, null, 2, null).close();
        assertTrue(H2CrashRepair.closedCleanly(dir.resolve("clean.mv.db")));
        Database.open(url, null, null, 2, null).close();
        assertFalse(Files.exists(dir.resolve("clean.before-rebuild.mv.db")));
    }

    @Test
    void rebuildingSomethingThatIsNotAnH2FileIsAConfigurationError() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "db", "rebuild", "--db", "jdbc:h2:mem:x");
        assertEquals(3, exit, out + " " + err);
        assertTrue(err.toString().contains("db.url"), err.toString());
    }

    private static void copyDamaged(Path to) throws IOException {
        try (InputStream in = H2CrashRepairTest.class.getResourceAsStream("h2-stuck-row.mv.db")) {
            Files.copy(in, to);
        }
    }

    private static long[] counts(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            return new long[] {single(c, "select count(*) from events"), single(c, "select count(*) from deliveries"),
                    single(c, "select count(*) from callbacks")};
        }
    }

    private static long identityBase(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            return single(c, "select identity_base from information_schema.columns where table_name = 'events' and column_name = 'id'");
        }
    }

    private static List<Long> ids(Connection c) throws SQLException {
        List<Long> ids = new java.util.ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select id from t")) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        return ids;
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A child JVM running one of the mains below; its stdout lines as they come. */
    private record Child(Process process, List<String> lines) {
        static Child start(Class<?> main, String url) throws IOException {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-cp", System.getProperty("java.class.path"), main.getName(), url).redirectErrorStream(true).start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread.ofVirtual().start(() -> {
                try (var r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) lines.add(l);
                } catch (IOException ignored) {
                    // the child was killed
                }
            });
            return new Child(p, lines);
        }

        /** Waits for a line, killing the child and failing when it does not come. */
        void awaitLine(String line, int seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!lines.contains(line)) {
                if (System.nanoTime() > deadline || !process.isAlive() && !lines.contains(line)) {
                    process.destroyForcibly();
                    throw new AssertionError("no '" + line + "' from the child: " + lines);
                }
                Thread.sleep(20);
            }
        }

        /** The ids a WriterMain child reported committed. */
        List<Long> committed() {
            return lines.stream().filter(l -> l.startsWith("committed ")).map(l -> Long.parseLong(l.substring(10))).toList();
        }

        void awaitCommits(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (committed().size() < n) {
                if (System.nanoTime() > deadline || !process.isAlive()) throw new AssertionError("the writer stalled: " + lines);
                Thread.sleep(10);
            }
        }
    }

    /** Claims deliveries 291-322 one by one as the engine does, printing each result. */
    public static final class ProbeMain {
        public static void main(String[] args) throws SQLException {
            try (Connection c = DriverManager.getConnection(args[0], "sa", "")) {
                OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                PreparedStatement ps = c.prepareStatement("update deliveries set lease_owner = ?, next_attempt_at = ? where id = ? "
                        + "and (case when state = 'pending' and next_attempt_at <= ? then 1 else 0 end) = 1");
                for (long id = 291; id <= 322; id++) {
                    ps.setString(1, "probe");
                    ps.setObject(2, now.plusSeconds(3));
                    ps.setLong(3, id);
                    ps.setObject(4, now);
                    System.out.println(id + " -> " + ps.executeUpdate());
                }
            }
        }
    }

    /** Inserts rows one commit at a time, printing each id after its commit returned. */
    public static final class WriterMain {
        public static void main(String[] args) throws SQLException {
            try (Connection c = DriverManager.getConnection(args[0], "sa", "")) {
                try (Statement st = c.createStatement()) {
                    st.execute("create table if not exists t (id bigint generated by default as identity primary key, v varchar(64))");
                }
                PreparedStatement ps = c.prepareStatement("insert into t (v) values (?)", Statement.RETURN_GENERATED_KEYS);
                for (int i = 0; ; i++) {
                    ps.setString(1, "row " + i);
                    ps.executeUpdate();
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        keys.next();
                        System.out.println("committed " + keys.getLong(1));
                    }
                }
            }
        }
    }
}
