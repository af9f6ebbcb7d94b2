package dev.ledgerlink.cli;

import picocli.CommandLine.Command;

/** The sandbox's controls (development mode, docs/sandbox.md): the same ones as {base_url}/sandbox/v1/, on the database. */
@Command(name = "sandbox", mixinStandardHelpOptions = true,
        description = "Development mode's controls: fault rules, the journal of the applications' calls, reset. "
                + "They act only on a server in development mode (serve --dev) over the same database.",
        subcommands = {SandboxFaultsCommand.class, SandboxRequestsCommand.class, SandboxResetCommand.class})
final class SandboxCommand {
}
