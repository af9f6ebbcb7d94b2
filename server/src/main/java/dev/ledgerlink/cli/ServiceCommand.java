package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Settings;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A command that works on the database through the services and prints one result. */
abstract class ServiceCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout.")
    boolean json;

    @Spec
    CommandSpec spec;

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

    void print(Map<String, ?> result, String human) {
        Output.print(spec, json, result, human);
    }
}
