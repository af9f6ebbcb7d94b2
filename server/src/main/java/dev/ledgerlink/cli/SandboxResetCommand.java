package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.sandbox.ResetJson;
import dev.ledgerlink.sandbox.SandboxReset;
import picocli.CommandLine.Command;

@Command(name = "reset", mixinStandardHelpOptions = true,
        description = "Empty the sandbox and apply its seed files again (those of serve --dev --seed and seed --dev), or make demo data "
                + "when it has none; its clock and faults are cleared. A running server keeps running. Refused on a database no "
                + "development-mode process has used.")
final class SandboxResetCommand extends ServiceCommand {
    @Override
    Settings.Builder adjust(Settings.Builder settings) {
        return settings.set(Setting.DEV, "true");   // what the seed files and demo data need: the sandbox's rules
    }

    @Override
    void run(Services s) {
        SandboxReset.Result r = s.sandboxReset().reset();
        print(ResetJson.of(r), ResetJson.describe(r));
    }
}
