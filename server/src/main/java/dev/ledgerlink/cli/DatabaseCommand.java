package dev.ledgerlink.cli;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.H2Backup;
import dev.ledgerlink.store.Restores;
import dev.ledgerlink.store.H2CrashRepair;
import dev.ledgerlink.store.SchemaStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Maintenance of the database itself.",
        subcommands = {DatabaseCommand.Migrate.class, DatabaseCommand.Status.class, DatabaseCommand.Backup.class, DatabaseCommand.Restore.class,
                DatabaseCommand.MarkRestored.class, DatabaseCommand.Rebuild.class})
final class DatabaseCommand {

    /** The database named by the store options, its pool small and its schema untouched. */
    static Database connect(Settings settings) {
        return Database.connect(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD), 2, null);
    }

    static Map<String, Object> describe(SchemaStatus status) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("state", status.state().name().toLowerCase(Locale.ROOT));
        result.put("schema", status.current());
        result.put("can_serve", status.canServe());
        result.put("applied", status.applied().size());
        result.put("pending", status.pending().stream().map(SchemaStatus.Migration::name).toList());
        result.put("newer", status.newer().stream().map(SchemaStatus.Migration::name).toList());
        return result;
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = "Apply this build's pending schema migrations and exit: the migrate step of an upgrade, run (as a Kubernetes "
                    + "Job or init container, a compose one-shot service) with a database user allowed to change the schema, before "
                    + "nodes that serve with db.migrate=never. Safe to run from several places at once. Each migration is announced "
                    + "on stderr as it starts (docs/operations.md, \"Upgrading\").")
    static final class Migrate extends StoreCommand {
        @Option(names = "--target", paramLabel = "VERSION", description = "Apply migrations up to this version only (e.g. 41).")
        String target;

        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            dev.ledgerlink.logging.LogFormat.apply(settings);
            long started = System.nanoTime();
            try (Database db = connect(settings)) {
                List<String> applied = new ArrayList<>();
                SchemaStatus status = db.migrate(target, step -> {
                    spec.commandLine().getErr().println("ledgerlink: " + step);
                    spec.commandLine().getErr().flush();
                    applied.add(step.substring("migrating ".length(), step.indexOf(" of ")));
                });
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("applied_now", applied);
                result.put("took_ms", (System.nanoTime() - started) / 1_000_000);
                result.putAll(describe(status));
                print(result, (applied.isEmpty() ? "nothing to apply" : "applied " + String.join(", ", applied) + " in "
                        + result.get("took_ms") + " ms") + "; " + status.describe());
                return 0;
            }
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Say whether this build can serve the database's schema: current, newer than this build (by which migrations: "
                    + "a later release's, which this build serves, since every migration is expand-only) or behind it (which of this "
                    + "build's migrations are not applied). Changes nothing. Exit code 0 when this build can serve it, 4 when it is behind.")
    static final class Status extends StoreCommand {
        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            try (Database db = connect(settings)) {
                SchemaStatus status = db.schemaStatus();
                Map<String, Object> result = describe(status);
                List<Restores.Restore> restores = status.canServe() ? Restores.all(db) : List.of();
                result.put("restores", restores.stream().map(r -> Map.of("restored_at", r.restoredAt().toString(),
                        "backup_point", r.backupPoint().toString(), "source", r.source(), "ids_advanced_by", r.idsAdvancedBy())).toList());
                print(result, status.describe() + (status.canServe() ? "" : "; run `ledgerlink db migrate`")
                        + (restores.isEmpty() ? "" : "\nlast " + restores.getFirst().describe()));
                return status.canServe() ? 0 : Output.EXIT_SCHEMA_BEHIND;
            }
        }
    }

    @Command(name = "backup", mixinStandardHelpOptions = true,
            description = "Copy the embedded H2 database to FILE (a zip) while the server runs: consistent as of the moment the backup "
                    + "starts (everything committed before it is in it), without stopping or locking anything. The secrets key is not "
                    + "in it: keep the key (its fingerprint is printed) where you keep the backups' key. PostgreSQL is backed up with "
                    + "its own tools (docs/operations.md, \"Backup and restore\").")
    static final class Backup extends StoreCommand {
        @Option(names = "--to", required = true, paramLabel = "FILE", description = "The backup file to make (it must not exist).")
        java.nio.file.Path to;

        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            H2Backup.Taken t = refusedAsConflict(() -> H2Backup.backup(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER),
                    settings.get(Setting.DB_PASSWORD), to));
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("file", t.file().toString());
            result.put("taken_at", t.manifest().takenAt().toString());
            result.put("schema", t.manifest().schema());
            result.put("secrets_key_fingerprint", t.manifest().keyId());
            result.put("bytes", t.bytes());
            result.put("took_ms", t.took().toMillis());
            print(result, "backed up to " + t.file() + " (" + t.bytes() / 1024 + " KiB) in " + t.took().toMillis() + " ms: everything committed "
                    + "before " + t.manifest().takenAt() + " is in it. The secrets key is not"
                    + (t.manifest().keyId() == null ? "" : ": the restore needs the key with fingerprint " + t.manifest().keyId()));
            return 0;
        }
    }

    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = "Put the database of a backup (ledgerlink db backup) into an empty data directory (--data-dir) or a new H2 file "
                    + "(--db), bring its schema up to this build, move every id counter past what the time since the backup may have "
                    + "handed out, and record the restore (the first server to start on it says so). Give the server the secrets key "
                    + "the backup names.")
    static final class Restore extends StoreCommand {
        @Option(names = "--from", required = true, paramLabel = "FILE", description = "The backup file.")
        java.nio.file.Path from;

        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            dev.ledgerlink.logging.LogFormat.apply(settings);
            long started = System.nanoTime();
            Optional<H2Backup.Manifest> manifest = refusedAsConflict(() -> H2Backup.restore(from, settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD)));
            Restores.Restore r;
            try (Database db = LedgerlinkServer.openDatabase(settings, null)) {
                r = Restores.mark(db, from.toAbsolutePath().toString(), manifest.map(H2Backup.Manifest::takenAt).orElse(null), Instant.now());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("database", settings.get(Setting.DB_URL));
            result.put("backup_point", r.backupPoint().toString());
            result.put("ids_advanced_by", r.idsAdvancedBy());
            result.put("secrets_key_fingerprint", manifest.map(H2Backup.Manifest::keyId).orElse(null));
            result.put("took_ms", (System.nanoTime() - started) / 1_000_000);
            String key = manifest.map(H2Backup.Manifest::keyId).map(k -> " Start the server with the secrets key whose fingerprint is " + k
                    + " (its key file in the data directory, or secrets.key).").orElse("");
            print(result, "restored " + from + " in " + result.get("took_ms") + " ms: " + r.describe() + "." + key);
            return 0;
        }
    }

    @Command(name = "mark-restored", mixinStandardHelpOptions = true,
            description = "After a PostgreSQL database was restored with PostgreSQL's tools (pg_restore, a base backup and its WAL): move "
                    + "every id counter past what the time since the backup may have handed out, and record the restore (the first server "
                    + "to start on it says so). Run it once, as the migrating user, before the nodes start (docs/operations.md, "
                    + "\"Backup and restore\").")
    static final class MarkRestored extends StoreCommand {
        @Option(names = "--backup-time", paramLabel = "INSTANT",
                description = "When the backup was taken, e.g. 2026-11-28T03:00:00Z (default: the newest event's time in the database).")
        Instant backupTime;

        @Option(names = "--source", paramLabel = "TEXT", defaultValue = "a backup restored with PostgreSQL's tools",
                description = "What it was restored from, for the record.")
        String source;

        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            try (Database db = LedgerlinkServer.openDatabase(settings, null)) {
                Restores.Restore r = Restores.mark(db, source, backupTime, Instant.now());
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("backup_point", r.backupPoint().toString());
                result.put("ids_advanced_by", r.idsAdvancedBy());
                print(result, "marked: " + r.describe());
                return 0;
            }
        }
    }

    private static <T> T refusedAsConflict(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (H2Backup.Refused refused) {
            throw ServiceException.of(ServiceException.Kind.CONFLICT, refused.getMessage());
        }
    }

    @Command(name = "rebuild", mixinStandardHelpOptions = true,
            description = "Rebuild the embedded H2 database from its committed rows (SCRIPT, then RUNSCRIPT into a new file), "
                    + "keeping the file as it was beside it. A server does this by itself when it starts on a file that was not "
                    + "closed cleanly; this is for a file damaged before that (docs/operations.md). The server must be stopped.")
    static final class Rebuild extends StoreCommand {
        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            H2CrashRepair.Rebuilt r;
            try {
                r = H2CrashRepair.rebuild(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD));
            } catch (H2CrashRepair.InUse busy) {
                throw ServiceException.of(ServiceException.Kind.CONFLICT, busy.getMessage());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("database", r.database().toString());
            result.put("kept_as", r.keptAs().toString());
            result.put("took_ms", r.took().toMillis());
            print(result, "rebuilt " + r.database() + " in " + r.took().toMillis() + " ms; the file as it was is kept as " + r.keptAs());
            return 0;
        }
    }
}
