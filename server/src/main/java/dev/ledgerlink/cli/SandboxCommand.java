package dev.ledgerlink.cli;

import picocli.CommandLine.Command;

/** The sandbox's controls (development mode, docs/sandbox.md), on the database every process of the sandbox shares. */
@Command(name = "sandbox", mixinStandardHelpOptions = true,
        description = "Development mode's controls, on the sandbox's database: reset.",
        subcommands = {SandboxResetCommand.class})
final class SandboxCommand {
}
