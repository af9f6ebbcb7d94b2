package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.User;
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
        subcommands = {UsersCommand.Create.class, UsersCommand.ListUsers.class, UsersCommand.SetPassword.class})
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
