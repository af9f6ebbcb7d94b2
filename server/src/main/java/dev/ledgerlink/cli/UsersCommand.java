package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.oauth.ConnectedAppJson;
import dev.ledgerlink.oauth.ConnectedApps;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "users", mixinStandardHelpOptions = true, description = "People who log in on the authorization page.",
        subcommands = {UsersCommand.Create.class, UsersCommand.ListUsers.class, UsersCommand.SetPassword.class, UsersCommand.ConnectedAppsOf.class,
                UsersCommand.DisconnectApp.class, UsersCommand.ResetSecondFactor.class})
final class UsersCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a user; prints its user_id.")
    static final class Create extends ServiceCommand {
        @Option(names = "--email", required = true, description = "The e-mail address the user signs in with.")
        String email;

        @ArgGroup(exclusive = true, multiplicity = "1")
        PasswordSource password;

        @Option(names = "--first-name", defaultValue = "", description = "First name (the consent page and /users/me show it).")
        String firstName;

        @Option(names = "--last-name", defaultValue = "", description = "Last name (the consent page and /users/me show it).")
        String lastName;

        @Override
        void run(Services s) {
            User u = s.users().create(email, password.resolve(), firstName, lastName);
            print(userJson(u), "user " + u.id() + " created (" + u.email() + ")");
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List users: id, e-mail and name.")
    static final class ListUsers extends ServiceCommand {
        @Override
        void run(Services s) {
            var users = s.users().list();
            StringBuilder human = new StringBuilder();
            for (User u : users) {
                human.append(u.id()).append('\t').append(u.email()).append('\t')
                        .append((u.firstName() + " " + u.lastName()).trim()).append('\n');
            }
            print(Map.of("users", users.stream().map(UsersCommand::userJson).toList()),
                    users.isEmpty() ? "no users" : human.toString().stripTrailing());
        }
    }

    @Command(name = "set-password", mixinStandardHelpOptions = true,
            description = "Give a user a new password (for example when the demo password printed at the first start is lost).")
    static final class SetPassword extends ServiceCommand {
        @Option(names = "--email", required = true, description = "The user's e-mail address.")
        String email;

        @ArgGroup(exclusive = true, multiplicity = "1")
        PasswordSource password;

        @Override
        void run(Services s) {
            User u = s.users().setPassword(email, password.resolve());
            print(userJson(u), "password of user " + u.id() + " (" + u.email() + ") changed");
        }
    }

    @Command(name = "connected-apps", mixinStandardHelpOptions = true,
            description = "The applications a user authorized that can still act for them, or would be let in again without asking.")
    static final class ConnectedAppsOf extends ServiceCommand {
        @Option(names = "--user", required = true, paramLabel = "ID|EMAIL", description = "The user's id or e-mail address.")
        String user;

        @Override
        void run(Services s) {
            long userId = AccountsCommand.resolveUser(s, user);
            var apps = s.oauth().connectedApps().of(userId);
            StringBuilder human = new StringBuilder();
            for (var c : apps) {
                human.append(c.application().clientId()).append('\t').append(c.application().name()).append('\t').append(String.join(" ", c.scopes()))
                        .append("\tsince ").append(c.connectedAt()).append("\tlast used ").append(c.lastUsedAt() == null ? "-" : c.lastUsedAt()).append('\n');
            }
            print(Map.of("connected_apps", apps.stream().map(ConnectedAppJson::of).toList()),
                    apps.isEmpty() ? "no connected applications" : human.toString().stripTrailing());
        }
    }

    @Command(name = "disconnect-app", mixinStandardHelpOptions = true,
            description = "Disconnect an application from a user, as the user can on their account page: its tokens stop working at once and "
                    + "the next authorization asks again. Audited.")
    static final class DisconnectApp extends ServiceCommand {
        @Option(names = "--user", required = true, paramLabel = "ID|EMAIL", description = "The user's id or e-mail address.")
        String user;

        @Option(names = "--app", required = true, paramLabel = "CLIENT_ID|ID", description = "The application's client_id or id.")
        String app;

        @Override
        void run(Services s) {
            long userId = AccountsCommand.resolveUser(s, user);
            var d = s.oauth().connectedApps().disconnect(userId, app, ConnectedApps.By.OPERATOR, null);
            print(Map.of("disconnected", ConnectedAppJson.disconnected(d)),
                    d.application().name() + " (" + d.application().clientId() + ") disconnected from user " + userId + "; "
                            + d.tokensRevoked() + " tokens revoked");
        }
    }

    @Command(name = "reset-second-factor", mixinStandardHelpOptions = true,
            description = "Remove a user's second factor (a lost phone and lost recovery codes): they sign in with their password alone and may "
                    + "set up an authenticator again. Audited.")
    static final class ResetSecondFactor extends ServiceCommand {
        @Option(names = "--user", required = true, paramLabel = "ID|EMAIL", description = "The user's id or e-mail address.")
        String user;

        @Override
        void run(Services s) {
            long userId = AccountsCommand.resolveUser(s, user);
            boolean had = s.oauth().secondFactor().reset(userId);
            print(Map.of("second_factor", Map.of("user_id", userId, "enrolled", false, "removed", had)),
                    had ? "second factor of user " + userId + " removed" : "user " + userId + " had no second factor");
        }
    }

    /** Where a password comes from: the command line, or (better) the first line of standard input. */
    static final class PasswordSource {
        @Option(names = "--password", description = "The password (visible to other local users in the process list; prefer --password-stdin).")
        String value;

        @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
        boolean stdin;

        String resolve() {
            if (!stdin) return value;
            try {
                String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                return line == null ? "" : line;
            } catch (IOException e) {
                return "";
            }
        }
    }

    static Map<String, Object> userJson(User u) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("user_id", u.id());
        out.put("email", u.email());
        out.put("first_name", u.firstName());
        out.put("last_name", u.lastName());
        return out;
    }
}
