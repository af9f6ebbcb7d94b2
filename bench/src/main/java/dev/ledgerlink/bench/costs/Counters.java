package dev.ledgerlink.bench.costs;

import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.proc.ProcStats;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the server and its database have spent so far, read before and after a phase: the server's CPU
 * (from /proc), and on PostgreSQL (the harness's own cluster, which runs nothing else) its processes'
 * CPU, the WAL bytes written (pg_stat_wal), the database's commits (pg_stat_database) and the
 * statements it executed (pg_stat_statements, the harness's own reads left out); on H2, which runs in
 * the server, the bytes H2 wrote to its file (the server's ledgerlink_h2_file_written_bytes_total).
 */
public final class Counters {
    /** One reading. */
    public record Reading(boolean postgres, long nanos, double serverCpu, double dbCpu, long walBytes, long commits, long statements,
                          long h2Written) {
        public Reading minus(Reading before) {
            return new Reading(postgres, nanos - before.nanos, serverCpu - before.serverCpu, dbCpu - before.dbCpu, walBytes - before.walBytes,
                    commits - before.commits - (postgres ? OWN_COMMITS : 0), statements - before.statements, h2Written - before.h2Written);
        }

        public double seconds() { return nanos / 1e9; }

        /** This difference less what {@code idle} (a difference over an idle interval) spends over as long as this one. */
        public Reading lessIdle(Reading idle) {
            double k = seconds() / idle.seconds();
            return new Reading(postgres, nanos, serverCpu - idle.serverCpu * k, dbCpu - idle.dbCpu * k, walBytes - Math.round(idle.walBytes * k),
                    commits - Math.round(idle.commits * k), statements - Math.round(idle.statements * k), h2Written - Math.round(idle.h2Written * k));
        }
    }

    /** The commits of one reading's own queries, taken off a difference. */
    static final long OWN_COMMITS = 3;
    private static final Pattern H2_WRITTEN = Pattern.compile("(?m)^ledgerlink_h2_file_written_bytes_total(?:\\{[^}]*\\})? ([0-9.eE+]+)");

    private final long serverPid;
    private final int serverPort;
    private final PrivatePostgres pg;
    private final String database;

    /** {@code pg} null: H2 in the server. */
    public Counters(long serverPid, int serverPort, PrivatePostgres pg, String database) {
        this.serverPid = serverPid;
        this.serverPort = serverPort;
        this.pg = pg;
        this.database = database;
    }

    /** Settles the database's statistics (a backend reports its counts within a second of its last transaction), then reads. */
    public Reading read() throws Exception {
        if (pg != null) Thread.sleep(1_200);
        long nanos = System.nanoTime();
        double server = ProcStats.cpuSeconds(serverPid);
        if (pg == null) return new Reading(false, nanos, server, 0, 0, 0, 0, h2Written());
        try (Connection c = pg.connect(database); Statement st = c.createStatement()) {
            long wal = one(st, "select wal_bytes from pg_stat_wal");
            long commits = one(st, "select xact_commit from pg_stat_database where datname = current_database()");
            long statements = one(st, """
                    select coalesce(sum(calls), 0) from pg_stat_statements
                    where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat%'""");
            return new Reading(true, nanos, server, pg.cpuSeconds(), wal, commits, statements, 0);
        }
    }

    private static long one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return (long) rs.getDouble(1);
        }
    }

    private long h2Written() throws Exception {
        try (Http1Connection http = new Http1Connection("127.0.0.1", serverPort)) {
            Matcher m = H2_WRITTEN.matcher(http.get("/metrics", Map.of()).text());
            return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
        }
    }
}
