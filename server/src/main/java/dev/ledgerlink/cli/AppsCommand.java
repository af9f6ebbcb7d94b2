package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.AccountsJson;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "apps", mixinStandardHelpOptions = true, description = "OAuth client applications.",
        subcommands = {AppsCommand.Create.class, AppsCommand.ListApps.class, AppsCommand.Show.class, AppsCommand.RotateSecret.class,
                AppsCommand.RetireSecret.class})
final class AppsCommand {

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Register an application; prints its client_id and client_secret (the secret is shown this once).")
    static final class Create extends ServiceCommand {
        @Option(names = "--name", required = true, description = "The name users see on the consent page.")
        String name;

        @Option(names = "--redirect-uri", required = true, arity = "1..*", description = "Registered redirect URIs (https; http to loopback with --dev).")
        List<String> redirectUris = new ArrayList<>();

        @Option(names = "--scope", required = true, arity = "1..*", completionCandidates = ScopeNames.class,
                description = "Scopes the application may be granted, one or more of those listed below.")
        List<String> scopes = new ArrayList<>();

        @Option(names = "--dev", description = "Allow http redirect URIs on loopback hosts (development).")
        boolean dev;

        @Option(names = "--account", description = "The account the application belongs to (its members see it in the developer console).")
        String account;

        @Override
        void run(Services s) {
            ApplicationService apps = dev
                    ? new ApplicationService(s.database().jdbi(), s.clock(), true, s.audit(), java.time.Duration.ZERO)
                    : s.applications();
            ApplicationService.Created c = apps.create(name, redirectUris, scopes, account);
            print(AccountsJson.created(c, s.clock().instant()), describe(c.application()) + "\nclient_secret: " + c.clientSecret() + "\n(the secret is shown only now; store it safely)");
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List applications.")
    static final class ListApps extends ServiceCommand {
        @Override
        void run(Services s) {
            List<Map<String, Object>> apps = s.applications().list().stream().map(a -> appJson(s, a)).toList();
            StringBuilder human = new StringBuilder();
            for (Application a : s.applications().list()) {
                human.append(a.id()).append('\t').append(a.clientId()).append('\t').append(a.name()).append('\n');
            }
            print(Map.of("applications", apps), human.isEmpty() ? "no applications" : human.toString().stripTrailing());
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one application (by id or client_id).")
    static final class Show extends ServiceCommand {
        @Parameters(paramLabel = "ID", description = "The application's id or client_id.")
        String id;

        @Override
        void run(Services s) {
            Application a = s.applications().show(id);
            print(appJson(s, a), describe(a));
        }
    }

    @Command(name = "rotate-secret", mixinStandardHelpOptions = true,
            description = "Issue a new client secret. The old one stops working at once, or with --keep-old after that long.")
    static final class RotateSecret extends ServiceCommand {
        @Parameters(paramLabel = "ID", description = "The application's id or client_id.")
        String id;

        @Option(names = "--keep-old", paramLabel = "DURATION",
                description = "Keep the old secret valid this long (ISO-8601, e.g. P7D; at most P30D) while clients switch over.")
        String keepOld;

        @Override
        void run(Services s) {
            ApplicationService.Created c = s.applications().rotateSecret(id, keepOld);
            Application a = c.application();
            String overlap = a.previousSecretExpiresAt() == null ? "the old secret no longer works"
                    : "the old secret keeps working until " + a.previousSecretExpiresAt() + " (apps retire-secret ends it sooner)";
            print(AccountsJson.created(c, s.clock().instant()), describe(a) + "\nclient_secret: " + c.clientSecret()
                    + "\n(the secret is shown only now; " + overlap + ")");
        }
    }

    @Command(name = "retire-secret", mixinStandardHelpOptions = true,
            description = "End the overlap of the last rotation now: only the current secret works from here on.")
    static final class RetireSecret extends ServiceCommand {
        @Parameters(paramLabel = "ID", description = "The application's id or client_id.")
        String id;

        @Override
        void run(Services s) {
            Application a = s.applications().retireSecret(id);
            print(appJson(s, a), describe(a) + "\nonly the current secret works now");
        }
    }

    static Map<String, Object> appJson(Services s, Application a) {
        return AccountsJson.application(a, s.clock().instant());
    }

    static String describe(Application a) {
        return "application " + a.id() + " (" + a.name() + ")\nclient_id: " + a.clientId()
                + "\nredirect URIs: " + String.join(" ", a.redirectUris())
                + "\nscopes: " + String.join(" ", a.scopes());
    }

    /** Lists the scope catalog under `apps create --help`, one per line (picocli would break names inside a description). */
    static void listScopesInHelp(picocli.CommandLine root) {
        root.getSubcommands().get("apps").getSubcommands().get("create").getCommandSpec().usageMessage()
                .footerHeading("%nValid scopes (--scope):%n")
                .footer(dev.ledgerlink.accounts.Scopes.all().stream().map(scope -> "  " + scope).toArray(String[]::new));
    }

    /** The scope catalog, for --scope's help and shell completion. */
    static final class ScopeNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return dev.ledgerlink.accounts.Scopes.all().iterator();
        }
    }
}
