package dev.ledgerlink.client.sandbox;

import dev.ledgerlink.client.Tokens;
import java.time.Duration;
import java.util.List;

/**
 * What a test does with a ledgerlink sandbox (docs/sandbox.md), the same whether the sandbox runs in
 * the test's JVM ({@code LedgerlinkSandbox}, module ledgerlink-sandbox), in a container
 * ({@code LedgerlinkContainer}, module ledgerlink-testcontainers) or anywhere else
 * ({@link SandboxControls#connect}): every method goes through the sandbox's HTTP controls, with its
 * operator key. A test written against this interface runs against each of them.
 *
 * <pre>{@code
 * Tokens tokens = sandbox.tokens("dev@example.com", "sandboxapp01");
 * String receiver = "http://" + sandbox.callbackHost() + ":" + port + "/webhooks";   // a receiver in this test's process
 * sandbox.publish("SBX01", "invoice.create", 42, sandbox.userId("dev@example.com"));
 * sandbox.clock().advance(Duration.ofHours(13));
 * sandbox.faults().on("token").status(503, 1).add();
 * }</pre>
 */
public interface Sandbox {
    /** The HTTP controls every other method uses; fails when the sandbox is not running. */
    SandboxControls controls();

    /** The API's address, e.g. {@code http://localhost:32771} (the authorization page is served there too). */
    default String baseUrl() {
        return controls().baseUrl();
    }

    /** The address of the authorization server's metadata (RFC 8414), which names every endpoint. */
    default String metadataUrl() {
        return controls().metadataUrl();
    }

    /** Where an application sends the user to authorize it, from the metadata document. */
    default String authorizationEndpoint() {
        return controls().authorizationEndpoint();
    }

    /** Where an application exchanges codes and refresh tokens, from the metadata document. */
    default String tokenEndpoint() {
        return controls().tokenEndpoint();
    }

    /** The bearer key of the sandbox's controls and of the internal API (events, admin). */
    default String operatorKey() {
        return controls().operatorKey();
    }

    /**
     * The host name under which the sandbox reaches a receiver running in this test's process:
     * {@code 127.0.0.1} in the test's JVM, the container engine's name for its host from a container
     * ({@code host.containers.internal}, {@code host.docker.internal}). Such a receiver listens on an
     * address the sandbox can reach (all interfaces for a container), not only on 127.0.0.1.
     */
    default String callbackHost() {
        return controls().callbackHost();
    }

    /**
     * The token response a code exchange would give, without a browser ({@code ledgerlink tokens issue}):
     * a grant with consent like any other. {@code user}: e-mail or id; {@code app}: client_id; no scopes: the app's.
     */
    default Tokens tokens(String user, String app, String... scopes) {
        return controls().tokens(user, app, scopes);
    }

    /**
     * An authorization code, by driving the real authorization page over HTTP as a browser would
     * (login form, consent, CSRF tokens, session cookie); the user must come from a seed file of this
     * sandbox, whose password is typed in. Exchange it at the token endpoint as your application does.
     */
    default String authorizationCode(String user, String app, String redirectUri) {
        return controls().authorizationCode(user, app, redirectUri);
    }

    /** The id of the user with this e-mail address (what events name as their user_id). */
    default long userId(String email) {
        return controls().userId(email);
    }

    /** Publishes an event as an internal service does: stored, then fanned out to the verified callbacks of the account. */
    default PublishedEvent publish(String accountId, String name, long objectId, long userId) {
        return controls().publish(accountId, name, objectId, userId);
    }

    /** A test event whose deliveries test your receiver (docs/sandbox.md, "Test deliveries"); marked as a test in the history. */
    default PublishedEvent publish(String accountId, String name, long objectId, long userId, TestDelivery delivery) {
        return controls().publish(accountId, name, objectId, userId, delivery);
    }

    /**
     * Several test events in one call, accepted in the order given and delivered to each callback one
     * after another in {@code delivery.order()}: out-of-order arrival, on purpose.
     */
    default List<PublishedEvent> publish(String accountId, List<TestEvent> events, TestDelivery delivery) {
        return controls().publish(accountId, events, delivery);
    }

    /** What was sent to a callback (verification requests and notifications), newest first, each with its attempts (at most 100). */
    default List<Delivery> deliveries(long callbackId) {
        return controls().deliveries(callbackId);
    }

    /**
     * Waits until a delivery of {@code eventName} (e.g. invoice.create, or callback.verify) to the
     * callback has succeeded, and returns it. Fails with the delivery history when it was dropped or
     * did not succeed within {@code timeout} (a failed attempt is retried after a minute by default).
     */
    default Delivery awaitDelivery(long callbackId, String eventName, Duration timeout) {
        return controls().awaitDelivery(callbackId, eventName, timeout);
    }

    /** The sandbox's movable clock: {@code clock().advance(Duration.ofHours(13))}, {@code set}, {@code reset}, {@code read}. */
    default SandboxClock clock() {
        return controls().clock();
    }

    /** The fault rules: {@code faults().on("token").status(503, 1).times(2).add()}, {@code list()}, {@code clear()}. */
    default SandboxFaults faults() {
        return controls().faults();
    }

    /** The journal of one application's calls, newest first (at most 1000); {@code clientId} null: every application's. */
    default List<JournalEntry> requests(String clientId) {
        return controls().requests(clientId);
    }

    /** Back to the state of the seed files (or empty with demo data), without a restart (docs/sandbox.md, "Reset"). */
    default ResetResult reset() {
        return controls().reset();
    }
}
