package dev.ledgerlink.cli;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.json.ErrorBodies;
import dev.ledgerlink.json.Json;
import dev.ledgerlink.secrets.WrongKey;
import dev.ledgerlink.store.PendingMigrations;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;

/** How commands print: one JSON object on stdout with --json, readable lines otherwise; failures likewise. */
final class Output {
    static final int EXIT_INVALID = 2;
    static final int EXIT_CONFIG = 3;
    /** db.migrate=never and this build's migrations were still not applied after db.migrate-wait; db status: the schema is behind. */
    static final int EXIT_SCHEMA_BEHIND = 4;
    /** The secrets key given is not the database's (or none was given where one must be). */
    static final int EXIT_WRONG_KEY = 5;

    private Output() {}

    static void print(CommandLine.Model.CommandSpec spec, boolean json, Map<String, ?> result, String human) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(toJson(result));
        } else {
            out.println(human);
        }
        out.flush();
    }

    static String toJson(Object value) {
        return Json.write(value);
    }

    /** Renders refusals as the API's error body (with --json) or as one line, and picks the exit code. */
    static final class FailureHandler implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cli, CommandLine.ParseResult parse) {
            boolean json = parse.hasMatchedOption("--json") || parse.subcommands().stream().anyMatch(Output::hasJson);
            if (ex instanceof ServiceException se) {
                if (json) {
                    cli.getOut().println(toJson(ErrorBodies.of(se)));
                    cli.getOut().flush();
                } else {
                    cli.getErr().println("error: " + sentence(se.getMessage()));
                }
                return EXIT_INVALID;
            }
            if (ex instanceof PendingMigrations pm) return refuse(cli, json, "schema_behind", pm.getMessage(), EXIT_SCHEMA_BEHIND);
            if (ex instanceof WrongKey wk) return refuse(cli, json, "wrong_secrets_key", wk.getMessage(), EXIT_WRONG_KEY);
            if (ex instanceof ConfigurationException ce) {
                if (json) {
                    cli.getOut().println(toJson(Map.of("error", "configuration", "message", ce.getMessage())));
                    cli.getOut().flush();
                } else {
                    cli.getErr().println("configuration error: " + sentence(ce.getMessage()));
                }
                return EXIT_CONFIG;
            }
            cli.getErr().println("error: " + ex);
            return 1;
        }
    }

    private static int refuse(CommandLine cli, boolean json, String error, String message, int exit) {
        if (json) {
            cli.getOut().println(toJson(Map.of("error", error, "message", message)));
            cli.getOut().flush();
        } else {
            cli.getErr().println("error: " + sentence(message));
        }
        return exit;
    }

    /** A message as one sentence on the terminal: "account is not known: ...", ending with a full stop. */
    static String sentence(String message) {
        if (message == null || message.isBlank()) return "the command failed.";
        String m = message.strip();
        return m.endsWith(".") ? m : m + ".";
    }

    private static boolean hasJson(CommandLine.ParseResult pr) {
        return pr.hasMatchedOption("--json") || pr.subcommands().stream().anyMatch(Output::hasJson);
    }
}
