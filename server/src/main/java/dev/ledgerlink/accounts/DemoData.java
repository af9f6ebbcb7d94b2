package dev.ledgerlink.accounts;

import dev.ledgerlink.secrets.RandomTokens;
import java.util.List;
import java.util.Optional;

/**
 * Demo data for development mode: an account, its owner and an application, created on the first
 * start against an empty database. The password and client secret are printed that once.
 */
public final class DemoData {
    public static final String DEMO_EMAIL = "demo@ledgerlink.test";

    public record Created(Account account, User user, String password, ApplicationService.Created app) {
        public String describe(String authUrl) {
            return String.join("\n",
                    "Demo data created (shown only now):",
                    "  account_id:    " + account.accountId(),
                    "  user:          " + user.email() + " / password " + password,
                    "  client_id:     " + app.application().clientId(),
                    "  client_secret: " + app.clientSecret(),
                    "  redirect URIs: " + String.join(" ", app.application().redirectUris()),
                    "  authorize at:  " + authUrl + "/oauth/authorize?response_type=code&client_id="
                            + app.application().clientId() + "&redirect_uri=" + app.application().redirectUris().getFirst());
        }
    }

    private DemoData() {}

    /**
     * Creates the demo data unless the database already has users; empty when nothing was created.
     * {@code applications} is the development-mode service: the demo redirect URIs are http on localhost.
     */
    public static Optional<Created> ensure(UserService users, AccountService accounts, ApplicationService applications) {
        if (users.count() > 0) return Optional.empty();
        String password = RandomTokens.alphanumeric(16);
        User user = users.create(DEMO_EMAIL, password, "Demo", "User");
        Account account = accounts.create("Demo Business", "UTC");
        accounts.addMember(account.accountId(), user.id(), "owner");
        ApplicationService.Created app = applications.create(
                "Demo Application",
                List.of("http://localhost:8000/callback", "https://localhost/callback"),
                List.copyOf(Scopes.all()), account.accountId());
        return Optional.of(new Created(account, user, password, app));
    }
}
