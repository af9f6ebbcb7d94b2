package dev.ledgerlink.cli;

import picocli.CommandLine.Command;

/**
 * The sandbox's controls (development mode), on the database directly: they live there, so every
 * process of the sandbox sees them (docs/sandbox.md). Each control is a subcommand of its own file.
 */
@Command(name = "sandbox", mixinStandardHelpOptions = true,
        description = "The sandbox's controls (a database a `serve --dev` server runs on): its clock.",
        subcommands = {SandboxClockCommand.class})
final class SandboxCommand {
}
