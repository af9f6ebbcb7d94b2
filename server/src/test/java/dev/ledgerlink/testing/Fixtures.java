package dev.ledgerlink.testing;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.oauth.TokenPrincipal;
import java.util.List;
import java.util.Set;

/**
 * The one set of test fixtures: a user who owns a business, and an application registered for it,
 * made through the real services (names unique per fixture, so many share one server). Callbacks are
 * registered and verified through the callbacks service, as the API does. Injected by
 * {@link TestServerExtension} (a new one per test).
 */
public record Fixtures(TestServer server, User user, Account account, Application app, String clientSecret, String password) {
    public static final String REDIRECT_URI = "http://127.0.0.1:9/callback";
    public static final List<String> SCOPES = List.of("user:profile:read", "user:invoices:read", "user:clients:read");

    public static Fixtures create(TestServer server) {
        return create(server, REDIRECT_URI);
    }

    public static Fixtures create(TestServer server, String redirectUri) {
        var s = server.services();
        String suffix = Long.toString(System.nanoTime(), 36);
        String password = "correct horse battery " + suffix;
        User user = s.users().create("ana." + suffix + "@example.com", password, "Ana", "Silva");
        Account account = s.accounts().create("Silva Design " + suffix, "America/Toronto");
        s.accounts().addMember(account.accountId(), user.id(), "owner");
        ApplicationService.Created created = s.applications().create("Invoice Sync", List.of(redirectUri), SCOPES);
        return new Fixtures(server, user, account, created.application(), created.clientSecret(), password);
    }

    /** Tokens with every scope of the application. */
    public TokenPair issue() {
        return server.services().tokens().issue(user.id(), app.id(), Set.copyOf(SCOPES));
    }

    /** Tokens with only these scopes. */
    public TokenPair issue(Set<String> scopes) {
        return server.services().tokens().issue(user.id(), app.id(), scopes);
    }

    public String[] bearer(String accessToken) {
        return new String[] {"Authorization", "Bearer " + accessToken};
    }

    /** Who a fresh access token with every scope speaks for, as the API sees it. */
    public TokenPrincipal principal() {
        return server.services().accessTokens().verify(issue().accessToken()).orElseThrow();
    }

    /** Registers a callback through the callbacks service; its verification request goes to {@code uri}. */
    public Callback register(String event, String uri) {
        return server.services().callbacks().register(principal(), account.accountId(), event, uri);
    }

    /** A verified callback and its code: registered, the code read from the verification request, sent back. */
    public record Verified(Callback callback, String code) {
        public long id() { return callback.id(); }
    }

    /** The whole handshake through the service: the receiver gets the verification request, the code goes back. */
    public Verified verified(String event, Receiver receiver) {
        Callback c = register(event, receiver.uri());
        String code = receiver.next("callback.verify").param("verifier");
        Callback verified = server.services().callbacks().verify(principal(), account.accountId(), c.id(), code);
        return new Verified(verified, code);
    }

    /** Publishes an event of this account through the Java API. */
    public Event publish(String name, long objectId) {
        return server.services().events().publish(new EventPublisher.Request(name, account.accountId(), objectId, user.id(), null));
    }
}
