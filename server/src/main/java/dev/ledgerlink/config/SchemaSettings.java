package dev.ledgerlink.config;

import java.time.Duration;

/**
 * Whether serve applies the schema's migrations (db.migrate) and, when it must not, how long it waits
 * for the migrate step to apply them (db.migrate-wait).
 */
public record SchemaSettings(boolean migrateAtStart, Duration migrateWait) {
    public static final String AT_START = "at-start";
    public static final String NEVER = "never";

    public static SchemaSettings from(Settings settings) {
        String mode = settings.get(Setting.DB_MIGRATE).trim();
        if (!mode.equals(AT_START) && !mode.equals(NEVER)) {
            throw new ConfigurationException(Setting.DB_MIGRATE.key() + " must be " + AT_START + " or " + NEVER + ", got '" + mode + "'");
        }
        return new SchemaSettings(mode.equals(AT_START), settings.duration(Setting.DB_MIGRATE_WAIT));
    }
}
