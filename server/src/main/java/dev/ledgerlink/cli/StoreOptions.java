package dev.ledgerlink.cli;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options every command shares: where the data and the database are, the config file, and generic settings. */
final class StoreOptions {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Directory of the embedded database and key files (default: LEDGERLINK_HOME, else ./data).")
    Path dataDir;

    @Option(names = "--db", paramLabel = "JDBC_URL",
            description = "Database URL (default: LEDGERLINK_DB_URL, else the H2 file ledgerlink in the data directory).")
    String db;

    @Option(names = "--config", paramLabel = "FILE", description = "Config file of key=value lines (default: LEDGERLINK_CONFIG).")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any setting of docs/configuration.md, e.g. --set delivery.timeout=PT5S.")
    List<String> assignments = new ArrayList<>();

    Settings.Builder settingsBuilder() {
        Path file = config;
        if (file == null && System.getenv("LEDGERLINK_CONFIG") != null) file = Path.of(System.getenv("LEDGERLINK_CONFIG"));
        Settings.Builder b = Settings.builder().file(file).environment(System.getenv());
        assignments.forEach(b::set);
        b.set(Setting.DB_URL, db);
        DataDir.apply(b, b.build(), DataDir.resolve(dataDir, System.getenv(DataDir.ENV)));
        return b;
    }

    /** The services over the configured database, for commands that work on it directly. */
    Services open(Settings settings) {
        DataDir.announceNewDatabase(settings, System.err);
        var metrics = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        var database = LedgerlinkServer.openDatabase(settings, null);
        try {
            return Services.create(settings, Clock.systemUTC(), database, metrics);
        } catch (RuntimeException refused) {   // another secrets key, say: the database is not left open behind the refusal
            database.close();
            throw refused;
        }
    }
}
