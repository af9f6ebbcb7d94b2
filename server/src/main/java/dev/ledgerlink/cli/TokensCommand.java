package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.oauth.OperatorGrant;
import dev.ledgerlink.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tokens", mixinStandardHelpOptions = true, description = "Tokens without a browser (operator).",
        subcommands = {TokensCommand.Issue.class})
final class TokensCommand {

    @Command(name = "issue", mixinStandardHelpOptions = true,
            description = "Grant an application access for a user, as if the user had clicked Authorize, and print the token "
                    + "response a code exchange would give. Recorded as a grant with consent (older refresh tokens of the pair "
                    + "stop working) and written to the audit log.")
    static final class Issue extends ServiceCommand {
        @Option(names = "--user", required = true, paramLabel = "EMAIL|ID", description = "The user the tokens are for: e-mail or id.")
        String user;

        @Option(names = "--app", required = true, paramLabel = "CLIENT_ID", description = "The application the tokens are for: client_id (or id).")
        String app;

        @Option(names = "--scope", arity = "1..*", paramLabel = "S", description = "Scopes to grant (default: the application's).")
        List<String> scopes = new ArrayList<>();

        @Override
        void run(Services s) {
            OperatorGrant.Issued issued = s.oauth().operatorGrant().issue(user, app, scopes);
            @SuppressWarnings("unchecked")
            Map<String, Object> response = Json.MAPPER.convertValue(issued.response(), Map.class);
            print(response, "access_token:  " + issued.response().accessToken()
                    + "\nrefresh_token: " + issued.response().refreshToken()
                    + "\nscope:         " + issued.response().scope()
                    + "\nexpires_in:    " + issued.response().expiresIn()
                    + "\n(for " + issued.user().email() + " and application " + issued.application().clientId() + ")");
        }
    }
}
