package dev.ledgerlink.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every setting checked once, before the server touches the database (no migration runs on a bad
 * configuration; the serve command exits 3 naming the setting). A setting's type is that of its
 * default, so settings added later are checked too: a duration (ISO-8601) must be longer than zero,
 * a list of durations must hold one at least, each longer than zero, a whole number must parse and
 * not be negative, a flag must be true or false. Cross-setting rules live in the typed records
 * ({@link DeliverySettings}, {@link PasswordHashSettings}, {@link TracingSettings}, {@link SchemaSettings}).
 */
public final class StartupChecks {
    /** LEDGERLINK_* variables that belong to the launcher, the scripts or the test suite, not to a setting. */
    private static final Set<String> NOT_SETTINGS = Set.of("LEDGERLINK_JAVA_OPTS", "LEDGERLINK_JAVA_OPTS_APPEND", "LEDGERLINK_IN_CONTAINER",
            "LEDGERLINK_HOME", "LEDGERLINK_CONFIG", "LEDGERLINK_LOG_LEVEL", "LEDGERLINK_TEST_PG_URL", "LEDGERLINK_TEST_PG_USER", "LEDGERLINK_BENCH_BUILD",
            "LEDGERLINK_BENCH_PG_URL", "LEDGERLINK_BENCH_PG_USER");

    /**
     * Durations whose zero is documented: retention.interval PT0S turns the background sweeper off,
     * a retention of PT0S removes rows as soon as they are finished (ledgerlink janitor), and
     * oauth.client-cache-ttl PT0S reads every client from the database, shutdown.drain PT0S closes the
     * API port at once on SIGTERM (nothing in front of the node to drain).
     */
    private static final Set<Setting> ZERO_MEANS_SOMETHING = Set.of(
            Setting.RETENTION_INTERVAL, Setting.RETENTION_DELIVERIES, Setting.RETENTION_EVENTS, Setting.RETENTION_TOKENS,
            Setting.CLIENT_CACHE_TTL, Setting.SHUTDOWN_DRAIN);

    private StartupChecks() {}

    /** Throws a {@link ConfigurationException} naming the first setting that cannot be used. */
    public static void check(Settings settings) {
        for (Setting s : Setting.values()) {
            String def = s.defaultValue();
            if (def.startsWith("P") && def.contains(",")) {
                List<Duration> all = settings.durations(s);
                if (all.isEmpty()) throw new ConfigurationException(s.key() + " must name at least one duration");
                for (Duration d : all) positive(s, d);
            } else if (def.startsWith("P")) {
                Duration d = settings.duration(s);
                if (!(d.isZero() && ZERO_MEANS_SOMETHING.contains(s))) positive(s, d);
            } else if (def.matches("[0-9]+")) {
                int n = settings.integer(s);
                if (n < 0) throw new ConfigurationException(s.key() + " must not be negative, got " + n);
                if (n == 0 && !def.equals("0") && s != Setting.HTTP_PORT) {
                    throw new ConfigurationException(s.key() + " must be at least 1, got 0");
                }
            } else if (def.equals("true") || def.equals("false")) {
                String v = settings.get(s).trim().toLowerCase(java.util.Locale.ROOT);
                if (!v.equals("true") && !v.equals("false")) throw new ConfigurationException(s.key() + " must be true or false, got '" + settings.get(s) + "'");
            }
        }
        if (settings.integer(Setting.HTTP_PORT) > 65535) throw new ConfigurationException(Setting.HTTP_PORT.key() + " must be at most 65535");
        // Migrating holds two connections at once (Flyway's lock and the migration's): a pool of one never starts.
        if (settings.integer(Setting.DB_POOL_SIZE) < 2) throw new ConfigurationException(Setting.DB_POOL_SIZE.key() + " must be at least 2, got "
                + settings.integer(Setting.DB_POOL_SIZE));
        DeliverySettings.from(settings);
        PasswordHashSettings.from(settings);
        for (String host : settings.list(Setting.DEV_CALLBACK_HOSTS)) {
            if (!host.matches("(?i)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")) {
                throw new ConfigurationException(Setting.DEV_CALLBACK_HOSTS.key() + " must list host names (letters, digits, hyphens, dots), got '" + host + "'");
            }
        }
        TracingSettings.from(settings);
        SchemaSettings.from(settings);
    }

    /** Environment variables that look like settings but are none: a typo must not pass silently. */
    public static Set<String> unknownEnvironment(Map<String, String> env) {
        Set<String> known = new TreeSet<>(NOT_SETTINGS);
        for (Setting s : Setting.values()) known.add(s.envName());
        Set<String> unknown = new TreeSet<>();
        for (String name : env.keySet()) if (name.startsWith("LEDGERLINK_") && !known.contains(name)) unknown.add(name);
        return unknown;
    }

    private static void positive(Setting s, Duration d) {
        if (d.isZero() || d.isNegative()) throw new ConfigurationException(s.key() + " must be longer than zero, got " + d);
    }
}
