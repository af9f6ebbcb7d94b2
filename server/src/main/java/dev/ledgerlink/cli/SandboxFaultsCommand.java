package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.sandbox.FaultRoute;
import dev.ledgerlink.sandbox.FaultRule;
import dev.ledgerlink.sandbox.SandboxJson;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ledgerlink sandbox faults add|list|clear}: the fault rules of docs/sandbox.md, "Faults". They
 * live in the database; a development-mode server over it applies a new rule within 250 ms.
 */
@Command(name = "faults", mixinStandardHelpOptions = true, description = "Fault rules: answers the sandbox gives instead of the normal ones.",
        subcommands = {SandboxFaultsCommand.Add.class, SandboxFaultsCommand.ListRules.class, SandboxFaultsCommand.Clear.class})
final class SandboxFaultsCommand {

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add a rule: the next matching requests (--times, default 1) get its effect: --status 503|429 "
                    + "(with Retry-After), --error invalid_grant (token route; nothing is used up) or --latency-ms N.")
    static final class Add extends ServiceCommand {
        @Option(names = "--route", required = true, paramLabel = "ROUTE",
                description = "authorize, token, revoke, introspect, identity or callbacks.")
        String route;

        @Option(names = "--client-id", paramLabel = "CLIENT_ID", description = "Only requests of this application.")
        String clientId;

        @Option(names = "--grant-type", paramLabel = "TYPE", description = "Token route only: authorization_code or refresh_token.")
        String grantType;

        @Option(names = "--status", paramLabel = "503|429", description = "Answer with this status, in the route's error shape.")
        Integer status;

        @Option(names = "--retry-after", paramLabel = "SECONDS", description = "Retry-After of a --status answer (default 1).")
        Integer retryAfter;

        @Option(names = "--error", paramLabel = "invalid_grant", description = "Refuse the grant (token route).")
        String error;

        @Option(names = "--latency-ms", paramLabel = "N", description = "Answer normally, N milliseconds late.")
        Integer latencyMs;

        @Option(names = "--times", paramLabel = "N", description = "How many matching requests the rule takes (default 1).")
        Integer times;

        @Override
        void run(Services s) {
            FaultRule r = s.faults().add(new FaultRule.Draft(route, clientId, grantType, status, retryAfter, error, latencyMs, times));
            print(Map.of("fault", SandboxJson.fault(r)), "fault rule " + r.id() + " added: " + SandboxFaultsCommand.line(r));
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every rule, with how many requests it has left.")
    static final class ListRules extends ServiceCommand {
        @Override
        void run(Services s) {
            List<FaultRule> rules = s.faults().list();
            StringBuilder human = new StringBuilder();
            for (FaultRule r : rules) human.append(r.id()).append("  ").append(SandboxFaultsCommand.line(r)).append('\n');
            if (rules.isEmpty()) human.append("no fault rules (routes: ").append(FaultRoute.names()).append(")\n");
            print(Map.of("faults", rules.stream().map(SandboxJson::fault).toList()), human.toString().stripTrailing());
        }
    }

    @Command(name = "clear", mixinStandardHelpOptions = true, description = "Remove every rule.")
    static final class Clear extends ServiceCommand {
        @Override
        void run(Services s) {
            int cleared = s.faults().clear();
            print(Map.of("cleared", cleared), cleared + " fault rules removed");
        }
    }

    /** "token refresh_token client abc: 503, Retry-After 2 s; 1 of 2 left". */
    static String line(FaultRule r) {
        StringBuilder b = new StringBuilder(r.route().wireName());
        if (r.grantType() != null) b.append(' ').append(r.grantType());
        if (r.clientId() != null) b.append(" client ").append(r.clientId());
        return b.append(": ").append(r.effect().describe()).append("; ").append(r.remaining()).append(" of ").append(r.times())
                .append(" left").toString();
    }
}
