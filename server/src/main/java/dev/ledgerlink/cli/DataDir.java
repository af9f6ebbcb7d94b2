package dev.ledgerlink.cli;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the CLI keeps its data when no database is configured: --data-dir, else LEDGERLINK_HOME,
 * else ./data. Resolved once, to an absolute path, so the embedded database and the key files are
 * the same wherever the command runs from; a command that is about to create a new embedded
 * database says so on stderr, with its path.
 */
final class DataDir {
    static final String ENV = "LEDGERLINK_HOME";

    private DataDir() {}

    static Path resolve(Path flag, String env) {
        Path dir = flag != null ? flag : env != null && !env.isBlank() ? Path.of(env) : Path.of("data");
        return dir.toAbsolutePath().normalize();
    }

    /** The default database and key file under {@code dir}, where the settings leave them at their defaults. */
    static void apply(Settings.Builder b, Settings current, Path dir) {
        if (current.get(Setting.DB_URL).equals(Setting.DB_URL.defaultValue())) {
            b.set(Setting.DB_URL, "jdbc:h2:file:" + dir.resolve("ledgerlink"));
        }
        if (current.get(Setting.SECRETS_KEY_FILE).equals(Setting.SECRETS_KEY_FILE.defaultValue())) {
            b.set(Setting.SECRETS_KEY_FILE, dir.resolve("ledgerlink.key").toString());
        }
    }

    /** Notes on stderr that opening {@code settings}' database will create it, when it is an H2 file that does not exist yet. */
    static void announceNewDatabase(Settings settings, PrintStream err) {
        String url = settings.get(Setting.DB_URL);
        String prefix = "jdbc:h2:file:";
        if (!url.regionMatches(true, 0, prefix, 0, prefix.length())) return;
        String file = url.substring(prefix.length());
        int semicolon = file.indexOf(';');
        if (semicolon >= 0) file = file.substring(0, semicolon);
        Path db = Path.of(file + ".mv.db").toAbsolutePath().normalize();
        if (!Files.exists(db)) {
            err.println("ledgerlink: no database at " + db + " yet: creating a new, empty one"
                    + " (choose another place with --data-dir, LEDGERLINK_HOME or --db)");
        }
    }
}
