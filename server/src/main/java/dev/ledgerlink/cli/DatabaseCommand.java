package dev.ledgerlink.cli;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.H2CrashRepair;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

@Command(name = "db", mixinStandardHelpOptions = true, description = "Maintenance of the database itself.",
        subcommands = DatabaseCommand.Rebuild.class)
final class DatabaseCommand {

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
