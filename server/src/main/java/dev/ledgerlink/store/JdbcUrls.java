package dev.ledgerlink.store;

import dev.ledgerlink.config.ConfigurationException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * What ledgerlink adds to a JDBC URL it is given. A plain H2 file URL becomes shareable between
 * processes (AUTO_SERVER), so the CLI can work on the file while a server has it open; every H2 URL
 * gets PostgreSQL compatibility so one set of SQL serves both databases, and an embedded H2 file a
 * page cache sized for the launcher's heap ({@link #H2_PAGE_CACHE_KIB}).
 *
 * <p>Every H2 URL gets {@code WRITE_DELAY=0}: by default H2 (2.x, MVStore) writes committed
 * transactions to its file from a background thread up to 500 ms later, so a process killed in that
 * window loses commits it had already acknowledged, and hands their ids out again after restart.
 * With a write delay of 0 each commit stores its changes to the file (the operating system's page
 * cache, which outlives the process) before the commit returns (TransactionStore.endTransaction calls
 * MVStore.commit), which is what decisions.md "Durability and failure" asks of a 2xx. A URL that sets
 * another WRITE_DELAY is refused rather than quietly weakening that promise.
 */
public final class JdbcUrls {
    private JdbcUrls() {}

    /**
     * H2's page cache, in KiB, unless the URL sets CACHE_SIZE: half of H2's default 16 MiB. The cache
     * lives in the server's heap (96 MiB with the launcher), where its pages are the bulk of what a
     * loaded server keeps; with 8 MiB the server collects fully less often under load, which shows in
     * the delivery p99 (docs/benchmarks-history.md, "H2's page cache at 8 MiB"). A database with a
     * larger working set can set its own CACHE_SIZE.
     */
    static final int H2_PAGE_CACHE_KIB = 8192;

    /** What H2 appends to a database name for its data file. */
    static final String H2_DATA_SUFFIX = ".mv.db";

    public static Database.Dialect dialect(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:h2:")) return Database.Dialect.H2;
        if (u.startsWith("jdbc:postgresql:")) return Database.Dialect.POSTGRESQL;
        throw new ConfigurationException("db.url must be a jdbc:h2: or jdbc:postgresql: URL, got '" + url + "'");
    }

    public static String normalize(String url) {
        if (url == null || url.isBlank()) throw new ConfigurationException("db.url is empty");
        String trimmed = url.trim();
        if (dialect(trimmed) != Database.Dialect.H2) return trimmed;
        String lower = trimmed.toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(trimmed);
        boolean inMemory = lower.startsWith("jdbc:h2:mem:");
        boolean remote = lower.startsWith("jdbc:h2:tcp:") || lower.startsWith("jdbc:h2:ssl:");
        if (!inMemory && !remote && !lower.contains(";auto_server=")) out.append(";AUTO_SERVER=TRUE");
        if (!lower.contains(";mode=")) out.append(";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH");
        if (!lower.contains(";lock_timeout=")) out.append(";LOCK_TIMEOUT=10000");
        if (inMemory && !lower.contains(";db_close_delay=")) out.append(";DB_CLOSE_DELAY=-1");
        if (!inMemory && !remote && !lower.contains(";cache_size=")) out.append(";CACHE_SIZE=" + H2_PAGE_CACHE_KIB);
        out.append(durableCommits(lower, trimmed));
        return out.toString();
    }

    /** {@code ;WRITE_DELAY=0} unless the URL already says so; any other write delay is refused. */
    private static String durableCommits(String lower, String url) {
        int at = lower.indexOf(";write_delay=");
        if (at < 0) return ";WRITE_DELAY=0";
        int end = lower.indexOf(';', at + 1);
        String value = lower.substring(at + ";write_delay=".length(), end < 0 ? lower.length() : end).trim();
        if (value.equals("0")) return "";
        throw new ConfigurationException("db.url sets WRITE_DELAY=" + value + ", which acknowledges commits before they reach the "
                + "database file (a crash would lose them); remove it, ledgerlink sets WRITE_DELAY=0 itself: " + url);
    }

    /**
     * The file an embedded H2 URL keeps its data in ({@code <name>.mv.db}), or empty for in-memory,
     * remote and other non-file H2 URLs. H2's own rules: {@code file:} is optional, {@code ~} is the
     * user's home directory, a relative name is relative to the working directory.
     */
    public static Optional<Path> h2DataFile(String url) {
        if (dialect(url) != Database.Dialect.H2) return Optional.empty();
        String name = h2Name(url);
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("file:")) name = name.substring("file:".length());
        else if (lower.matches("^[a-z][a-z0-9]+:.*")) return Optional.empty(); // mem:, tcp:, zip:, split:, ...
        if (name.isBlank()) return Optional.empty();
        if (name.equals("~") || name.startsWith("~/")) name = System.getProperty("user.home") + name.substring(1);
        return Optional.of(Path.of(name + H2_DATA_SUFFIX).toAbsolutePath().normalize());
    }

    /**
     * The same H2 URL opened by this process alone ({@code AUTO_SERVER=FALSE}), on {@code dataFile}'s
     * database: H2 then refuses (error 90020) while another process holds the file.
     */
    static String h2Exclusive(String url, Path dataFile) {
        String file = dataFile.toString();
        String base = file.substring(0, file.length() - H2_DATA_SUFFIX.length());
        int semicolon = url.indexOf(';');
        String options = semicolon < 0 ? "" : url.substring(semicolon);
        options = options.replaceAll("(?i);AUTO_SERVER=[^;]*", "").replaceAll("(?i);AUTO_SERVER_PORT=[^;]*", "");
        return "jdbc:h2:file:" + base + options + ";AUTO_SERVER=FALSE";
    }

    private static String h2Name(String url) {
        String rest = url.substring("jdbc:h2:".length());
        int semicolon = rest.indexOf(';');
        return semicolon < 0 ? rest : rest.substring(0, semicolon);
    }
}
