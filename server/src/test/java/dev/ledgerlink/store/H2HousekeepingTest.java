package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.H2Only;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An H2 file under a steady load of small durable commits (a row added, the oldest removed, and a row
 * anywhere in between updated, as a refresh uses its chain's last token and retention removes what
 * aged out) stays much smaller when ledgerlink does H2's chunk rewriting ({@link H2Housekeeping}) than
 * without it: with WRITE_DELAY=0 H2's own housekeeping thread never runs, and each commit's chunk keeps
 * its whole space for as long as one page of it is live (here until a random update hits that page
 * again, in the soak until retention removes the row). Sizes in bytes, never a time. The soak (docs/BENCHMARKS.md, "Soak") shows the same on the real load.
 */
@H2Only
class H2HousekeepingTest {
    private static final int ROWS = 50_000;
    private static final int COMMITS = 10_000;

    @TempDir
    Path dir;

    @Test
    void aFileUnderSteadyChurnKeepsItsSizeWithHousekeepingAndGrowsWithout() throws Exception {
        long without = churn(dir.resolve("without"), false);
        long with = churn(dir.resolve("with"), true);
        System.out.printf("H2HousekeepingTest: %d small commits over %d live rows: %.1f MiB without housekeeping, %.1f MiB with%n",
                COMMITS, ROWS, without / 1048576.0, with / 1048576.0);
        assertTrue(with * 3 < without * 2, "housekeeping keeps the file a third smaller than without it at least: "
                + with + " against " + without + " bytes");
    }

    /**
     * Space freed inside the file (most rows deleted, as a retention sweep after a busy hour does) is
     * given back: passes move the last chunks into the gaps and cut the file's end.
     */
    @Test
    void freeSpaceInsideTheFileIsGivenBackByMovingChunksDown() throws Exception {
        Path base = dir.resolve("shrink");
        JdbcDataSource ds = dataSource(base);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("set retention_time 0");
            st.execute("create table rows (id bigint primary key, payload varchar(300) not null)");
            try (PreparedStatement insert = c.prepareStatement("insert into rows (id, payload) values (?, ?)")) {
                for (long id = 0; id < ROWS; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "x".repeat(300));
                    insert.executeUpdate();
                }
            }
            st.execute("create table late (id bigint primary key, payload varchar(300) not null)");   // written after: at the file's end
            st.execute("insert into late select id, payload from rows where id < 2000");
            long full = Files.size(Path.of(base + ".mv.db"));
            st.execute("delete from rows");
            long largest = Files.size(Path.of(base + ".mv.db"));   // the delete's own chunks come on top
            H2Housekeeping.Reading reading = null;
            for (int pass = 0; pass < 20; pass++) {
                reading = H2Housekeeping.pass(ds);
                largest = Math.max(largest, reading.fileBytes());
                // H2 frees a chunk left empty at the next commit: a server at rest still commits now and then
                st.executeUpdate("update late set payload = payload where id = 0");
            }
            long after = Files.size(Path.of(base + ".mv.db"));
            System.out.printf("H2HousekeepingTest: %.1f MiB with %d rows, up to %.1f MiB with the delete of all but %d, %.1f MiB after the passes "
                            + "(file %d%% used by chunks)%n", full / 1048576.0, ROWS + 2000, largest / 1048576.0, 2000, after / 1048576.0,
                    reading.fileFillPercent());
            // Without the move the file keeps its largest size (its free space is reused by later commits, never given back).
            assertTrue(after * 3 < largest, "the file gives back its free space: " + after + " bytes of " + largest);
            assertTrue(after < full, "smaller than before the delete: " + after + " of " + full + " bytes");
            try (var rs = st.executeQuery("select count(*) from late")) {
                rs.next();
                assertTrue(rs.getLong(1) == 2000, "the rows of the moved chunks are all there");
            }
        }
    }

    private static JdbcDataSource dataSource(Path base) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(JdbcUrls.normalize("jdbc:h2:file:" + base + ";AUTO_SERVER=FALSE"));
        ds.setUser("sa");
        return ds;
    }

    /** The file's size after the churn, with a housekeeping pass every 500 commits or none. */
    private static long churn(Path base, boolean housekeeping) throws Exception {
        JdbcDataSource ds = dataSource(base);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            // H2 reuses a chunk's space only 45 s after its last live page moved (for readers of old
            // versions): a test of seconds lets it reuse it at once, or neither file could keep its size.
            st.execute("set retention_time 0");
            st.execute("create table churn (id bigint primary key, touched int not null, payload varchar(300) not null)");
            st.execute("create index churn_touched on churn (touched)");
            c.setAutoCommit(false);
            String pad = "x".repeat(300);
            try (PreparedStatement insert = c.prepareStatement("insert into churn (id, touched, payload) values (?, 0, ?)");
                 PreparedStatement update = c.prepareStatement("update churn set touched = touched + 1 where id = ?");
                 PreparedStatement delete = c.prepareStatement("delete from churn where id = ?")) {
                for (long id = 0; id < ROWS; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, pad);
                    insert.executeUpdate();
                }
                c.commit();
                java.util.Random random = new java.util.Random(42);
                for (long n = 0; n < COMMITS; n++) {
                    long id = ROWS + n;
                    insert.setLong(1, id);
                    insert.setString(2, pad);
                    insert.executeUpdate();
                    update.setLong(1, id - 1 - random.nextInt(ROWS - 1));   // a row anywhere in the live window, as a chain's last token is
                    update.executeUpdate();
                    delete.setLong(1, id - ROWS);
                    delete.executeUpdate();
                    c.commit();
                    if (housekeeping && n % 500 == 0) H2Housekeeping.pass(ds);
                }
            }
            return Files.size(Path.of(base + ".mv.db"));
        }
    }
}
