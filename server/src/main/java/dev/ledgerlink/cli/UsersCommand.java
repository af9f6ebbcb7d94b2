package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.AccountsJson;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.web.AdminJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "users", mixinStandardHelpOptions = true, description = "People who log in on the authorization page.",
        subcommands = {UsersCommand.Create.class, UsersCommand.ListUsers.class})
final class UsersCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a user; prints its user_id.")
    static final class Create extends ServiceCommand {
        @Option(names = "--email", required = true)
        String email;

        @ArgGroup(exclusive = true, multiplicity = "1")
        PasswordSource password;

        @Option(names = "--first-name", defaultValue = "")
        String firstName;

        @Option(names = "--last-name", defaultValue = "")
        String lastName;

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

        @Override
        void run(Services s) {
            User u = s.users().create(email, password.resolve(), firstName, lastName);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("user_id", u.id());
            out.put("email", u.email());
            out.put("first_name", u.firstName());
            out.put("last_name", u.lastName());
            print(out, "user " + u.id() + " created (" + u.email() + ")");
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Users in the order they were created.")
    static final class ListUsers extends ServiceCommand {
        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Paging.Page<User> p = s.users().page(pages.paging());
            StringBuilder human = new StringBuilder();
            for (User u : p.items()) human.append(u.id()).append('\t').append(u.email()).append('\n');
            print(AdminJson.page(p, "users", AccountsJson::user), human + PageOptions.footer(p, "users"));
        }
    }
}
