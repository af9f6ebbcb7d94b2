package dev.ledgerlink.testing;

import dev.ledgerlink.delivery.DeliveryState;
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
 * registered through the callbacks service and verified by the handshake a user goes through: the
 * receiver gets the verification request, its code goes back through the service. No test writes
 * callback rows itself. Injected by {@link TestServerExtension} (a new one per test).
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

    /**
     * Who an access token with every scope of the application speaks for, as the bearer filter hands
     * it to a service. Made without issuing a token: issuing adds to the user's grant, which would end
     * the live refresh token of a test's own OAuth flow and change what it counts.
     */
    public TokenPrincipal principal() {
        return new TokenPrincipal(user.id(), app.id(), Set.copyOf(SCOPES), server.clock().instant().plus(java.time.Duration.ofHours(12)));
    }

    /** Registers a callback through the callbacks service; its verification request goes to {@code uri}. */
    public Callback register(String event, String uri) {
        return server.services().callbacks().register(principal(), account.accountId(), event, uri);
    }

    /** A verified callback and its code: registered, the code read from the verification request, sent back. */
    public record Verified(Callback callback, String code) {
        public long id() { return callback.id(); }
    }

    /**
     * The whole handshake through the service, as an integrating app does it: the callback is
     * registered, the receiver gets the verification request, its code goes back. The receiver keeps
     * the request in {@link Receiver#requests}: a test that counts requests clears it after set-up.
     */
    public Verified verified(String event, Receiver receiver) {
        return verify(register(event, receiver.uri()).id(), receiver);
    }

    /** Like {@link #verified(String, Receiver)}, to a URI of the receiver's own (a path or query of it). */
    public Verified verified(String event, Receiver receiver, String uri) {
        return verify(register(event, uri).id(), receiver);
    }

    /** Reads the code of callback {@code id}'s next verification request from the receiver and sends it back. */
    public Verified verify(long id, Receiver receiver) {
        String code = verificationRequest(id, receiver).param("verifier");
        return new Verified(verify(id, code), code);
    }

    /** Sends a code back through the service, as PUT ... {"callback": {"verifier": ...}} does. */
    public Callback verify(long id, String code) {
        return server.services().callbacks().verify(principal(), account.accountId(), id, code);
    }

    /** The receiver's next verification request for callback {@code id} (those of other callbacks are skipped). */
    public static Receiver.Request verificationRequest(long id, Receiver receiver) {
        while (true) {
            Receiver.Request r = receiver.next("callback.verify");
            if (Long.toString(id).equals(r.param("object_id"))) return r;
        }
    }

    /**
     * Waits until the server has recorded the outcome of callback {@code id}'s verification requests
     * (none pending): before counting deliveries or metrics, or stopping a server whose database
     * another will serve.
     */
    public void verificationsRecorded(long id) {
        Eventually.await("the verification requests of callback " + id + " are recorded", () -> server.services().deliveryReads()
                .history(null, id, 1, 100).deliveries().stream()
                .noneMatch(d -> d.name().equals("callback.verify") && d.state() == DeliveryState.PENDING));
    }

    /** Resend through the service (PUT ... {"callback": {"resend": true}}): a new code, unverified, re-enabled, the request sent again. */
    public Callback resend(long id) {
        return server.services().callbacks().resend(principal(), account.accountId(), id);
    }

    /** The callback as it stands (verified, disabled, ...), read as an operator does. */
    public Callback callback(long id) {
        return server.services().operatorCallbacks().show(id);
    }

    /** Deletes the callback through the service, as DELETE does. */
    public void delete(long id) {
        server.services().callbacks().delete(principal(), account.accountId(), id);
    }

    /** Publishes an event of this account through the Java API. */
    public Event publish(String name, long objectId) {
        return server.services().events().publish(new EventPublisher.Request(name, account.accountId(), objectId, user.id(), null));
    }
}
