package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.sandbox.TestDelivery;
import dev.ledgerlink.sandbox.TestEvents;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * /console/test-event: pick an account, an event and an object id; the event is published through
 * the same path as real events (events.EventPublisher), so its deliveries show up in the live tail.
 */
public final class TestEventPage {
    /**
     * What the form was given, to show it again with the problem; the last five are the test-delivery
     * options of development mode (docs/sandbox.md, "Test deliveries"): how many events (consecutive
     * object ids), their order, the signature, copies and delay.
     */
    public record Draft(String accountId, String name, String objectId, String userId, String count, String order, String signature,
                        String copies, String delay) {
        Draft(String accountId, String name, String objectId, String userId) {
            this(accountId, name, objectId, userId, "1", "as_sent", "valid", "1", "PT0S");
        }

        /** No test-delivery option chosen: published exactly as a real event is. */
        boolean plain() {
            return count.equals("1") && order.equals("as_sent") && signature.equals("valid") && copies.equals("1") && delay.equals("PT0S");
        }
    }

    private final ConsoleSession session;
    private final EventPublisher publisher;
    private final AccountService accounts;
    private final TestEvents testEvents;   // development mode only, else null

    TestEventPage(ConsoleSession session, EventPublisher publisher, AccountService accounts, TestEvents testEvents) {
        this.session = session;
        this.publisher = publisher;
        this.accounts = accounts;
        this.testEvents = testEvents;
    }

    void show(Context ctx) {
        Viewer viewer = session.require(ctx);
        String account = viewer.accounts().isEmpty() ? "" : viewer.accounts().getFirst().accountId();
        render(ctx, viewer, new Draft(account, "invoice.create", "1", defaultUser(viewer, account)), null, HttpStatus.OK);
    }

    void publish(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        Draft d = testEvents == null
                ? new Draft(ConsolePage.field(ctx, "account_id"), ConsolePage.field(ctx, "name"),
                        ConsolePage.field(ctx, "object_id").trim(), ConsolePage.field(ctx, "user_id").trim())
                : new Draft(ConsolePage.field(ctx, "account_id"), ConsolePage.field(ctx, "name"), ConsolePage.field(ctx, "object_id").trim(),
                        ConsolePage.field(ctx, "user_id").trim(), or(ConsolePage.field(ctx, "count").trim(), "1"),
                        or(ConsolePage.field(ctx, "order"), "as_sent"), or(ConsolePage.field(ctx, "signature"), "valid"),
                        or(ConsolePage.field(ctx, "copies").trim(), "1"), or(ConsolePage.field(ctx, "delay").trim(), "PT0S"));
        if (!viewer.canSee(d.accountId())) {
            render(ctx, viewer, d, "Choose one of your accounts.", HttpStatus.UNPROCESSABLE_CONTENT);
            return;
        }
        try {
            Event e = testEvents == null || d.plain()
                    ? publisher.publish(new EventPublisher.Request(d.name(), d.accountId(), number(d.objectId()), number(d.userId()), null))
                    : sendTest(d).getFirst();
            ctx.redirect("/console/activity?notice=published&ref=" + e.id(), HttpStatus.SEE_OTHER);
        } catch (ServiceException e) {
            render(ctx, viewer, d, ConsolePage.describe(e), HttpStatus.UNPROCESSABLE_CONTENT);
        }
    }

    /**
     * Development mode: the event (or several, object ids counting up from the one given) as a test
     * event, its deliveries sent with the options chosen; marked as tests in the history.
     */
    private List<Event> sendTest(Draft d) {
        Long first = number(d.objectId());
        Long count = number(d.count());
        new dev.ledgerlink.errors.Validation()
                .check(first != null && first > 0, "object_id", "must be a positive integer")
                .check(count != null && count >= 1 && count <= TestEvents.MAX_EVENTS, "count", "must be from 1 to " + TestEvents.MAX_EVENTS)
                .check(d.copies().matches("\\d{1,2}"), "copies", "must be from 1 to " + TestDelivery.MAX_COPIES)
                .throwIfInvalid();
        TestDelivery options = TestDelivery.parse("", d.signature(), Integer.valueOf(d.copies()), d.delay().isEmpty() ? null : d.delay(), d.order());
        List<TestEvents.Item> items = new ArrayList<>();
        for (long i = 0; i < count; i++) items.add(new TestEvents.Item(d.name(), first + i, number(d.userId())));
        return testEvents.sendAsOperator(d.accountId(), items, options);
    }

    /** The signed-in user, or for an operator the account's first member. */
    private String defaultUser(Viewer viewer, String accountId) {
        if (!viewer.operator()) return Long.toString(viewer.user().id());
        List<Long> members = accountId.isEmpty() ? List.of() : accounts.memberIds(List.of(accountId));
        return members.isEmpty() ? "1" : members.getFirst().toString();
    }

    private void render(Context ctx, Viewer viewer, Draft draft, String problem, HttpStatus status) {
        List<String> events = new ArrayList<>();
        EventCatalog.nouns().values().forEach(n -> n.verbs().forEach(v -> events.add(n.name() + "." + v)));
        Map<String, Object> p = new HashMap<>();
        p.put("draft", draft);
        p.put("events", events);
        p.put("problem", problem);
        p.put("testDeliveries", testEvents != null);
        ctx.status(status);
        ConsolePage.render(ctx, viewer, "test-event", "test-event.jte", p);
    }

    private static String or(String given, String absent) {
        return given == null || given.isEmpty() ? absent : given;
    }

    /** A number as typed; anything else becomes null, which the publisher refuses with the field's rule. */
    private static Long number(String s) {
        return s.matches("\\d{1,18}") ? Long.valueOf(s) : null;
    }
}
