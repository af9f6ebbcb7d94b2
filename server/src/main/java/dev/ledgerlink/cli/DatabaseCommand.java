package dev.ledgerlink.cli;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.H2CrashRepair;
import dev.ledgerlink.store.SchemaStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Maintenance of the database itself.",
        subcommands = {DatabaseCommand.Migrate.class, DatabaseCommand.Status.class, DatabaseCommand.Rebuild.class})
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
                print(describe(status), status.describe() + (status.canServe() ? "" : "; run `ledgerlink db migrate`"));
                return status.canServe() ? 0 : Output.EXIT_SCHEMA_BEHIND;
            }
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
