package dev.ledgerlink.bench.growth;

import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import dev.ledgerlink.bench.proc.ServerProcess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plans PostgreSQL really ran for the service's statements, with their row counts and times
 * (auto_explain with ANALYZE and BUFFERS, every statement, for a short phase): switched on for one
 * database, the caller's work runs against a server started after it (its connections take the
 * setting), then it is switched off again and the plans are read from the cluster's log, one per
 * statement text (the first seen), the most frequent first.
 */
public final class PlanCapture {
    private static final List<String> SETTINGS = List.of("auto_explain.log_min_duration = 0", "auto_explain.log_analyze = on",
            "auto_explain.log_buffers = on", "auto_explain.log_timing = on", "auto_explain.log_nested_statements = on",
            "auto_explain.log_format = text");
    /** A log line's start (log_line_prefix '%m [%p] %d '): a timestamp. */
    private static final Pattern LINE_START = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
    private static final Pattern PLAN_START = Pattern.compile("LOG:\\s+duration: ([0-9.]+) ms\\s+plan:");

    /** The work a plan phase runs, against the server started for it. */
    @FunctionalInterface
    public interface Work {
        void run(ServerProcess server) throws Exception;
    }

    private PlanCapture() {}

    /** Runs {@code work} with every statement's plan logged, and writes the plans to {@code out}. */
    public static Path capture(PrivatePostgres pg, BenchRun.Stage stage, boolean dev, Work work, Path out) throws Exception {
        String database = stage.db.url().replaceAll(".*/", "").replaceAll("\\?.*", "");
        long from = Files.size(pg.log());
        set(pg, database, true);
        try {
            ServerProcess server = stage.start(dev);
            work.run(server);
            stage.stopServer();
        } finally {
            set(pg, database, false);
        }
        Map<String, Plan> plans = parse(read(pg.log(), from));
        List<Plan> ordered = new ArrayList<>(plans.values());
        ordered.sort((a, b) -> Integer.compare(b.seen, a.seen));
        StringBuilder text = new StringBuilder();
        for (Plan p : ordered) {
            text.append("-- seen ").append(p.seen).append(" times; this one took ").append(p.ms).append(" ms\n")
                    .append(p.plan.stripTrailing()).append("\n\n");
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text.toString());
        return out;
    }

    /**
     * H2: the statements the work ran (H2's query statistics, switched on for it) and the plan H2 makes
     * for each (EXPLAIN: the index it reads, whether the index gives the order), the costliest first. H2
     * plans by rules, not by the values bound, so the plan of the statement's text is the plan it ran.
     */
    public static Path captureH2(BenchRun.Stage stage, boolean dev, org.jdbi.v3.core.Jdbi jdbi, Work work, Path out) throws Exception {
        StatementStats stats = new StatementStats(jdbi, stage.db.kind());
        ServerProcess server = stage.start(dev);
        stats.reset();
        work.run(server);
        List<StatementStats.Statement> ran = stats.read();
        stage.stopServer();
        StringBuilder text = new StringBuilder();
        jdbi.useHandle(h -> {
            for (StatementStats.Statement s : ran) {
                String sql = s.text().strip();
                String lower = sql.toLowerCase(java.util.Locale.ROOT);
                if (!(lower.startsWith("select") || lower.startsWith("update") || lower.startsWith("delete") || lower.startsWith("insert")
                        || lower.startsWith("with")) || lower.contains("information_schema")) continue;
                String plan;
                try {
                    plan = h.createQuery("explain " + sql).mapTo(String.class).one();
                } catch (RuntimeException e) {
                    plan = "(no plan: " + e.getMessage().lines().findFirst().orElse("") + ")\n" + sql;
                }
                text.append(String.format("-- ran %d times, %.3f ms each on average, %.3f ms at most%n", s.calls(), s.meanMs(), s.maxMs()))
                        .append(plan.strip()).append("\n\n");
            }
        });
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text.toString());
        return out;
    }

    private static void set(PrivatePostgres pg, String database, boolean on) throws SQLException {
        try (Connection c = pg.connect("postgres")) {
            for (String s : SETTINGS) {
                String name = s.substring(0, s.indexOf(' '));
                c.createStatement().execute(on ? "alter database " + database + " set " + s : "alter database " + database + " reset " + name);
            }
        }
    }

    private static String read(Path log, long from) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            f.seek(from);
            byte[] b = new byte[(int) Math.min(Integer.MAX_VALUE - 8, f.length() - from)];
            f.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    private static final class Plan {
        final String plan;
        final String ms;
        int seen = 1;

        Plan(String plan, String ms) {
            this.plan = plan;
            this.ms = ms;
        }
    }

    /** Each logged plan (the lines after "duration: .. plan:" up to the next log line), keyed by its query text. */
    static Map<String, Plan> parse(String log) {
        Map<String, Plan> out = new LinkedHashMap<>();
        String[] lines = log.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = PLAN_START.matcher(lines[i]);
            if (!m.find()) continue;
            StringBuilder plan = new StringBuilder();
            int j = i + 1;
            for (; j < lines.length && !LINE_START.matcher(lines[j]).find(); j++) plan.append(lines[j]).append('\n');
            i = j - 1;
            String p = plan.toString();
            String key = queryText(p);
            Plan seen = out.get(key);
            if (seen == null) out.put(key, new Plan(p, m.group(1)));
            else seen.seen++;
        }
        return out;
    }

    /** The plan's "Query Text:" up to the plan itself, with its whitespace collapsed. */
    static String queryText(String plan) {
        int at = plan.indexOf("Query Text:");
        if (at < 0) return plan;
        String rest = plan.substring(at + "Query Text:".length());
        Matcher firstNode = Pattern.compile("\\n\\s*(Insert|Update|Delete|Result|Limit|Sort|Seq Scan|Index|Nested Loop|Hash|Merge|Aggregate|"
                + "LockRows|CTE|Subquery|Bitmap|Unique|Gather|Append|WindowAgg|Group|Function Scan|Values Scan|ModifyTable|Materialize)").matcher(rest);
        String q = firstNode.find() ? rest.substring(0, firstNode.start()) : rest;
        return q.replaceAll("\\s+", " ").trim();
    }
}
