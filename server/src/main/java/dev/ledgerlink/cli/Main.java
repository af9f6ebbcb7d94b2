package dev.ledgerlink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The ledgerlink command line: the server and the operator commands. */
@Command(name = "ledgerlink", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "OAuth 2.0 authorization and event-callback service.",
        footer = {"",
                // each line under 80 columns: picocli wraps longer ones mid-sentence
                "Every command works on one database: the embedded H2 file in the data",
                "directory (--data-dir DIR, else LEDGERLINK_HOME, else ./data) unless",
                "--db JDBC_URL (or LEDGERLINK_DB_URL) names another. Commands that print a",
                "result take --json for one JSON object on stdout.",
                "`ledgerlink COMMAND --help` lists a command's options."},
        subcommands = {ServeCommand.class, AccountsCommand.class, UsersCommand.class, AppsCommand.class, EventsCommand.class, DeliveriesCommand.class, TokensCommand.class, SeedCommand.class,
                CallbacksCommand.class, GrantsCommand.class, JanitorCommand.class, DatabaseCommand.class, SecretsCommand.class, SandboxCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (tests call this to run the real CLI in-process). */
    public static int run(String... args) {
        return run(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
    }

    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new Output.FailureHandler());
        AppsCommand.listScopesInHelp(cli);
        return cli.execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ledgerlink " + dev.ledgerlink.config.BuildInfo.current().describe()};
        }
    }
}
