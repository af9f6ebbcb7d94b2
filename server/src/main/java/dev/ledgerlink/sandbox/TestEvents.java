package dev.ledgerlink.sandbox;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.callbacks.CallbackAccess;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.events.FanOut;
import dev.ledgerlink.oauth.TokenPrincipal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Test events for integration developers, in development mode only (the route does not exist
 * otherwise): an application fires events into an account with its own access token instead of
 * the operator key. Same rules as seeing that event: the token's user is a member of the account and
 * the token holds the scope of the event's noun; a user_id given must name a member of the account
 * (the token's user when none is). Published through the one {@link EventPublisher}, so the
 * notifications are signed, retried and recorded exactly like real ones, and their deliveries carry
 * the test options of the call ({@link TestDelivery}: tampered or stale signatures, copies, a delay,
 * the order of several events), which mark them as tests in the history.
 */
public final class TestEvents {
    /** The object_id of a test event when none is given. */
    public static final long DEFAULT_OBJECT_ID = 1;
    /** Events in one call at most. */
    public static final int MAX_EVENTS = 20;

    /** One event of a call; {@code objectId} and {@code userId} may be null (defaults: 1, the token's user). */
    public record Item(String name, Long objectId, Long userId) {}

    private final EventPublisher publisher;
    private final AccountService accounts;
    private final DeliveryService deliveries;
    private final CallbackAccess access;

    public TestEvents(EventPublisher publisher, AccountService accounts, DeliveryService deliveries) {
        this.publisher = publisher;
        this.accounts = accounts;
        this.deliveries = deliveries;
        this.access = new CallbackAccess(accounts);
    }

    /** One event, as the application of {@code who}, with plain test deliveries. */
    public Event send(TokenPrincipal who, String accountId, String name, Long objectId, String idempotencyKey) {
        return send(who, accountId, List.of(new Item(name, objectId, null)), TestDelivery.PLAIN, idempotencyKey, false).getFirst();
    }

    /**
     * Events as the application of {@code who}: {@code listed} tells whether the client sent them as
     * a list (then violations are named {@code events[i].name}, and an Idempotency-Key is refused).
     */
    public List<Event> send(TokenPrincipal who, String accountId, List<Item> items, TestDelivery options, String idempotencyKey,
                            boolean listed) {
        access.requireMember(who, accountId);
        check(accountId, items, options, idempotencyKey, listed, true);
        for (Item i : items) CallbackAccess.requireScopeFor(who, i.name());
        return publish(accountId, items, who.userId(), options, idempotencyKey);
    }

    /**
     * Events as the operator publishes them (the console, {@code POST /sandbox/v1/events}), with test
     * deliveries: every user_id is required, and, as on the internal endpoint, not checked against the account.
     */
    public List<Event> sendAsOperator(String accountId, List<Item> items, TestDelivery options) {
        return sendAsOperator(accountId, items, options, null);
    }

    /** As {@link #sendAsOperator(String, List, TestDelivery)}, with an Idempotency-Key for a single event. */
    public List<Event> sendAsOperator(String accountId, List<Item> items, TestDelivery options, String idempotencyKey) {
        var v = new Validation();
        for (int i = 0; i < items.size(); i++) {
            Long user = items.get(i).userId();
            v.check(user != null && user > 0, field(items.size() > 1, i, "user_id"), "must be a positive integer");
        }
        v.throwIfInvalid();
        check(accountId, items, options, idempotencyKey, items.size() > 1, false);
        return publish(accountId, items, null, options, idempotencyKey);
    }

    private void check(String accountId, List<Item> items, TestDelivery options, String idempotencyKey, boolean listed, boolean members) {
        var v = new Validation();
        v.check(!items.isEmpty() && items.size() <= MAX_EVENTS, "events", "must hold 1 to " + MAX_EVENTS + " events");
        v.check(options.order() == TestDelivery.Order.AS_SENT || items.size() > 1, "delivery.order", "applies to two or more events (events: [...])");
        v.check(idempotencyKey == null || !listed, "Idempotency-Key", "names one event: leave it out when sending a list of events");
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            v.check(EventCatalog.isEvent(item.name()), field(listed, i, "name"), "must be an event of the catalog, noun.verb (for example invoice.create)");
            v.check(item.objectId() == null || item.objectId() > 0, field(listed, i, "object_id"), "must be a positive integer");
            if (members && item.userId() != null && (item.userId() <= 0 || accounts.membership(item.userId(), accountId).isEmpty())) {
                v.add(field(listed, i, "user_id"), "must name a member of account " + accountId);
            }
        }
        v.throwIfInvalid();
    }

    private List<Event> publish(String accountId, List<Item> items, Long defaultUser, TestDelivery options, String idempotencyKey) {
        List<EventPublisher.Request> requests = items.stream().map(i -> new EventPublisher.Request(i.name(), accountId,
                i.objectId() == null ? DEFAULT_OBJECT_ID : i.objectId(), i.userId() == null ? defaultUser : i.userId(),
                items.size() == 1 ? idempotencyKey : null)).toList();
        if (requests.size() == 1) return List.of(publisher.publish(requests.getFirst(), fanOut(options, null)));
        // The i-th event (in the order accepted) goes to each callback at position sendOrder.indexOf(i).
        List<Integer> sendOrder = new ArrayList<>(IntStream.range(0, items.size()).boxed().toList());
        switch (options.order()) {
            case AS_SENT -> { }
            case REVERSED -> Collections.reverse(sendOrder);
            case SHUFFLED -> Collections.shuffle(sendOrder);
        }
        String sequence = UUID.randomUUID().toString();
        List<FanOut> via = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) via.add(fanOut(options, new TestDelivery.Place(sequence, sendOrder.indexOf(i), items.size())));
        return publisher.publishAll(requests, via);
    }

    /**
     * The queue's fan-out of one test event, first due after the options' delay (and in an ordered
     * call, held back behind the places before it: TestDelivery#firstDue), with the options stored
     * beside each delivery in the same transaction.
     */
    private FanOut fanOut(TestDelivery options, TestDelivery.Place place) {
        return (h, eventId, accountId, name, noun, now) -> {
            DeliveryService.Queued q = deliveries.fanOutDueAt(h, eventId, accountId, name, noun, now, options.firstDue(now, place));
            if (q.deliveries() > 0) TestDeliveryStore.add(h, eventId, options, place);
            return new FanOut.Queued(q.deliveries(), q.afterCommit());
        };
    }

    private static String field(boolean listed, int i, String name) {
        return listed ? "events[" + i + "]." + name : name;
    }
}
