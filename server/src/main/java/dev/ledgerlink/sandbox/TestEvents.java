package dev.ledgerlink.sandbox;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.callbacks.CallbackAccess;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.TokenPrincipal;

/**
 * Test events for integration developers, in development mode only (the route does not exist
 * otherwise): an application fires an event into an account with its own access token instead of
 * the operator key. Same rules as seeing that event: the token's user is a member of the account and
 * the token holds the scope of the event's noun. Published through the one {@link EventPublisher},
 * so the notification is signed, retried and recorded exactly like a real one; user_id is the
 * token's user.
 */
public final class TestEvents {
    /** The object_id of a test event when none is given. */
    public static final long DEFAULT_OBJECT_ID = 1;

    private final EventPublisher publisher;
    private final CallbackAccess access;

    public TestEvents(EventPublisher publisher, AccountService accounts) {
        this.publisher = publisher;
        this.access = new CallbackAccess(accounts);
    }

    public Event send(TokenPrincipal who, String accountId, String name, Long objectId, String idempotencyKey) {
        access.requireMember(who, accountId);
        new Validation().check(EventCatalog.isEvent(name), "name", "must be an event of the catalog, noun.verb (for example invoice.create)")
                .throwIfInvalid();
        CallbackAccess.requireScopeFor(who, name);
        return publisher.publish(new EventPublisher.Request(name, accountId, objectId == null ? DEFAULT_OBJECT_ID : objectId,
                who.userId(), idempotencyKey));
    }
}
