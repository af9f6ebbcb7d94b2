package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Settings;

/** A command that works on the database through the services and prints one result. */
abstract class ServiceCommand extends StoreCommand {
    @Override
    public final Integer call() {
        Settings settings = adjust(store.settingsBuilder()).build();
        dev.ledgerlink.logging.LogFormat.apply(settings);
        Services services = store.open(settings);
        try {
            run(services);
            return 0;
        } finally {
            services.database().close();
        }
    }

    abstract void run(Services services);

    /** A command's own settings on top of the shared options (seed --dev). */
    Settings.Builder adjust(Settings.Builder settings) {
        return settings;
    }
}
