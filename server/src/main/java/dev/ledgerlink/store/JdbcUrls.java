package dev.ledgerlink.store;

import dev.ledgerlink.config.ConfigurationException;
import java.util.Locale;

/**
 * What ledgerlink adds to a JDBC URL it is given. A plain H2 file URL becomes shareable between
 * processes (AUTO_SERVER), so the CLI can work on the file while a server has it open; every H2 URL
 * gets PostgreSQL compatibility so one set of SQL serves both databases.
 */
public final class JdbcUrls {
    private JdbcUrls() {}

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
        return out.toString();
    }
}
