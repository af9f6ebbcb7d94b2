package dev.ledgerlink.bench.growth;

import dev.ledgerlink.bench.proc.BenchDatabase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jdbi.v3.core.Jdbi;

/**
 * What the database itself says each statement cost over a phase: on PostgreSQL pg_stat_statements of
 * the database (the harness's own cluster preloads it), on H2 its query statistics
 * (INFORMATION_SCHEMA.QUERY_STATISTICS, switched on for the phase). {@link #reset} at the start of the
 * phase, {@link #read} at its end.
 */
public final class StatementStats {
    /** One statement's executions over the phase: count, mean and most time (ms), rows. */
    public record Statement(String text, long calls, double meanMs, double maxMs, double totalMs, long rows) {
        /** Does the statement's text contain every one of these fragments (case and spacing ignored)? */
        public boolean matches(String... fragments) {
            String t = text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            for (String f : fragments) if (!t.contains(f.toLowerCase(Locale.ROOT))) return false;
            return true;
        }
    }

    private final Jdbi jdbi;
    private final boolean postgres;

    public StatementStats(Jdbi jdbi, BenchDatabase.Kind kind) {
        this.jdbi = jdbi;
        this.postgres = kind == BenchDatabase.Kind.POSTGRES;
    }

    public void reset() {
        jdbi.useHandle(h -> {
            if (postgres) {
                h.execute("select pg_stat_statements_reset()");
            } else {
                // Switching them off clears them; on again counts from now.
                h.execute("set query_statistics false");
                h.execute("set query_statistics_max_entries 1000");
                h.execute("set query_statistics true");
            }
        });
    }

    /** Every statement of the phase, most total time first. */
    public List<Statement> read() {
        List<Statement> out = new ArrayList<>(jdbi.withHandle(h -> postgres
                ? h.createQuery("""
                        select query, calls, mean_exec_time, max_exec_time, total_exec_time, rows from pg_stat_statements
                        where dbid = (select oid from pg_database where datname = current_database())""")
                        .map((rs, ctx) -> new Statement(rs.getString(1), rs.getLong(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5), rs.getLong(6)))
                        .list()
                : h.createQuery("""
                        select sql_statement, execution_count, average_execution_time, max_execution_time, cumulative_execution_time,
                               cumulative_row_count from information_schema.query_statistics""")
                        .map((rs, ctx) -> new Statement(rs.getString(1), rs.getLong(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5), rs.getLong(6)))
                        .list()));
        out.sort(Comparator.comparingDouble(Statement::totalMs).reversed());
        return out;
    }

    /** The phase's executions of the statements matching all fragments, summed (mean weighted by calls, max of maxes). */
    public static Statement of(List<Statement> all, String... fragments) {
        long calls = 0;
        long rows = 0;
        double total = 0;
        double max = 0;
        String text = null;
        for (Statement s : all) {
            if (!s.matches(fragments)) continue;
            calls += s.calls();
            rows += s.rows();
            total += s.totalMs();
            max = Math.max(max, s.maxMs());
            if (text == null) text = s.text();
        }
        return new Statement(text == null ? String.join(" ... ", fragments) : text, calls, calls == 0 ? Double.NaN : total / calls, max, total, rows);
    }
}
