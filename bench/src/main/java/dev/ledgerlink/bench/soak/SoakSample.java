package dev.ledgerlink.bench.soak;

import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.ProcStats;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.store.JdbcUrls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One reading of the server under the soak: resident memory, heap after a full collection (the soak
 * asks the server's JVM for one with jcmd GC.run, then reads jvm_memory_used_bytes), threads and open
 * files (from /proc), the pool's connections (hikaricp_connections, of them active), and the rows of
 * the tables that grow with use, with the database's size on disk; on H2 also how much of its file the
 * chunks occupy and how much of the chunks is live (ledgerlink_h2_file_fill, ledgerlink_h2_chunks_fill), and
 * how much H2 has written to it since the server started (ledgerlink_h2_file_written_bytes_total).
 */
public record SoakSample(double minute, double rssMib, double heapAfterGcMib, long threads, long openFiles, long poolConnections,
                         long poolActive, Map<String, Long> rows, double databaseMib, double h2FileFill, double h2ChunksFill, double h2WrittenMib) {
    /** The tables the soak's load writes (deliveries split by state: pending ones are never removed). */
    static final List<String> TABLES = List.of("events", "deliveries_pending", "deliveries_finished", "delivery_attempts",
            "oauth_refresh_tokens", "oauth_access_tokens", "oauth_authorization_codes", "oauth_grants", "oauth_login_sessions",
            "operator_notifications");

    /** The columns of {@link #csvLine}. */
    static String csvHeader() {
        return "minute,rss_mib,heap_after_gc_mib,threads,open_files,pool_connections,pool_active," + String.join(",", TABLES) + ",database_mib,h2_file_fill_pct,h2_chunks_fill_pct,h2_written_mib";
    }

    String csvLine() {
        StringBuilder s = new StringBuilder(String.format("%.1f,%.1f,%.1f,%d,%d,%d,%d", minute, rssMib, heapAfterGcMib, threads, openFiles,
                poolConnections, poolActive));
        for (String t : TABLES) s.append(',').append(rows.getOrDefault(t, -1L));
        s.append(String.format(",%.1f", databaseMib));
        for (double pct : new double[] {h2FileFill, h2ChunksFill}) s.append(',').append(Double.isNaN(pct) ? "" : Long.toString(Math.round(pct)));
        s.append(',').append(Double.isNaN(h2WrittenMib) ? "" : String.format("%.0f", h2WrittenMib));
        return s.toString();
    }

    /** Reads the server now; {@code collect}: a full collection first, so heap is what is live. */
    public static SoakSample take(double minute, ServerProcess server, BenchDatabase db, boolean collect) throws Exception {
        long pid = server.pid();
        if (collect) jcmd(pid, "GC.run");
        String metrics;
        try (Http1Connection http = new Http1Connection("127.0.0.1", server.port())) {
            metrics = http.get("/metrics", Map.of()).text();
        }
        double heap = sum(metrics, "jvm_memory_used_bytes{area=\"heap\"") / (1024 * 1024);
        return new SoakSample(minute, ProcStats.rssMib(pid), heap, threads(pid), openFiles(pid),
                (long) sum(metrics, "hikaricp_connections{pool=\"ledgerlink\""), (long) sum(metrics, "hikaricp_connections_active{pool=\"ledgerlink\""),
                rows(db), databaseMib(db), gauge(metrics, "ledgerlink_h2_file_fill "), gauge(metrics, "ledgerlink_h2_chunks_fill "),
                gauge(metrics, "ledgerlink_h2_file_written_bytes_total ") / (1024 * 1024));
    }

    /** The threads of the process (every platform thread; virtual threads run on a few of them). */
    public static long threads(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("Threads:")) return Long.parseLong(line.substring(8).trim());
        }
        return -1;
    }

    /** The process's open file descriptors: files, sockets (clients, the pool, receivers), pipes. */
    public static long openFiles(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.count();
        }
    }

    /** A gauge without labels, NaN when the server has none of that name. */
    static double gauge(String metrics, String nameAndSpace) {
        return metrics.lines().filter(l -> l.startsWith(nameAndSpace)).mapToDouble(l -> Double.parseDouble(l.substring(nameAndSpace.length()).trim()))
                .findFirst().orElse(Double.NaN);
    }

    /** The sum of a metric's series whose text starts with {@code prefix} (name and first labels). */
    static double sum(String metrics, String prefix) {
        return metrics.lines().filter(l -> l.startsWith(prefix))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static Map<String, Long> rows(BenchDatabase db) throws SQLException {
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection c = connect(db); Statement st = c.createStatement()) {
            for (String t : TABLES) {
                String sql = switch (t) {
                    case "deliveries_pending" -> "select count(*) from deliveries where state = 'pending'";
                    case "deliveries_finished" -> "select count(*) from deliveries where state <> 'pending'";
                    default -> "select count(*) from " + t;
                };
                try (ResultSet rs = st.executeQuery(sql)) {
                    rs.next();
                    rows.put(t, rs.getLong(1));
                }
            }
        }
        return rows;
    }

    private static double databaseMib(BenchDatabase db) throws SQLException, IOException {
        if (db.kind() == BenchDatabase.Kind.H2) {
            Path file = JdbcUrls.h2DataFile(db.url()).orElseThrow();
            return Files.size(file) / (1024.0 * 1024);
        }
        try (Connection c = connect(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c "
                     + "join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'")) {
            rs.next();
            return rs.getLong(1) / (1024.0 * 1024);
        }
    }

    private static Connection connect(BenchDatabase db) throws SQLException {
        boolean h2 = db.kind() == BenchDatabase.Kind.H2;
        return DriverManager.getConnection(JdbcUrls.normalize(db.url()), h2 ? "sa" : db.user(), "");
    }

    private static void jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("jcmd " + command + " failed: " + out);
    }
}
