package dev.ledgerlink.cli;

import picocli.CommandLine.Command;

/**
 * The sandbox's controls (development mode, docs/sandbox.md): the same ones as {base_url}/sandbox/v1/,
 * on the database directly: they live there, so every process of the sandbox sees them. Each control
 * is a subcommand of its own file.
 */
@Command(name = "sandbox", mixinStandardHelpOptions = true,
        description = "Development mode's controls: its clock, fault rules, the journal of the applications' calls, reset. "
                + "They act on a server in development mode (serve --dev) over the same database.",
        subcommands = {SandboxClockCommand.class, SandboxFaultsCommand.class, SandboxRequestsCommand.class, SandboxResetCommand.class})
final class SandboxCommand {
}
