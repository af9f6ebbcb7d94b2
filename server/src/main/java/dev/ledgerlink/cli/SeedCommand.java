package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.sandbox.SeedFile;
import dev.ledgerlink.sandbox.Seeder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "seed", mixinStandardHelpOptions = true,
        description = "Create the users, accounts, memberships, applications and callbacks of a seed file (YAML or JSON; "
                + "docs/sandbox.md). Idempotent: what exists is left alone; an entry that conflicts with what exists is an error naming it.")
final class SeedCommand extends ServiceCommand {
    @Parameters(paramLabel = "FILE", description = "The seed file: YAML or JSON (docs/sandbox.md).")
    Path file;

    @Option(names = "--dev", description = "Development mode: fixed client ids and secrets, http loopback redirect and callback URIs.")
    boolean dev;

    @Override
    Settings.Builder adjust(Settings.Builder settings) {
        return dev ? settings.set(Setting.DEV, "true") : settings;
    }

    @Override
    void run(Services s) {
        Seeder.Result r = seed(s, file);
        print(json(r), describe(r));
    }

    /** Applies the file; in development mode it is kept too, so that a reset applies it again (docs/sandbox.md, "Reset"). */
    static Seeder.Result seed(Services s, Path file) {
        Seeder.Result r = new Seeder(s.users(), s.accounts(), s.applications(), s.callbacks()).apply(SeedFile.read(file));
        if (s.settings().flag(Setting.DEV)) s.sandboxReset().keep(file);
        return r;
    }

    static Map<String, Object> json(Seeder.Result r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("created", r.created());
        out.put("unchanged", r.unchanged());
        out.put("client_secrets", r.generatedSecrets());
        return out;
    }

    static String describe(Seeder.Result r) {
        StringBuilder b = new StringBuilder("seed: " + r.created().size() + " created, " + r.unchanged().size() + " already in place");
        r.created().forEach(c -> b.append("\n  created ").append(c));
        r.generatedSecrets().forEach((id, secret) -> b.append("\n  client_secret of ").append(id).append(": ").append(secret)
                .append(" (shown only now)"));
        return b.toString();
    }
}
