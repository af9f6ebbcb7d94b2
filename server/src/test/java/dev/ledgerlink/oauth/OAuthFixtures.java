package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.Set;

/** A user with a business and a registered application, made through the real services. */
public record OAuthFixtures(User user, Account account, Application app, String clientSecret, String password) {
    public static final String REDIRECT_URI = "http://127.0.0.1:9/callback";
    public static final List<String> SCOPES = List.of("user:profile:read", "user:invoices:read", "user:clients:read");

    public static OAuthFixtures create(TestServer server) {
        return create(server, REDIRECT_URI);
    }

    public static OAuthFixtures create(TestServer server, String redirectUri) {
        var s = server.services();
        String suffix = Long.toString(System.nanoTime(), 36);
        String password = "correct horse battery " + suffix;
        User user = s.users().create("ana." + suffix + "@example.com", password, "Ana", "Silva");
        Account account = s.accounts().create("Silva Design " + suffix, "America/Toronto");
        s.accounts().addMember(account.accountId(), user.id(), "owner");
        ApplicationService.Created created = s.applications().create("Invoice Sync", List.of(redirectUri), SCOPES);
        return new OAuthFixtures(user, account, created.application(), created.clientSecret(), password);
    }

    public TokenPair issue(TestServer server) {
        return server.services().tokens().issue(user.id(), app.id(), Set.copyOf(SCOPES));
    }

    public String[] bearer(String accessToken) {
        return new String[] {"Authorization", "Bearer " + accessToken};
    }
}
