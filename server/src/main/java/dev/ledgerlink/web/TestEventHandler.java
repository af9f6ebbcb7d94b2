package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventJson;
import dev.ledgerlink.sandbox.TestDelivery;
import dev.ledgerlink.sandbox.TestEvents;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Test events (development mode only; docs/sandbox.md, "Test events" and "Test deliveries"): one
 * event ({@code name}, {@code object_id}, {@code user_id}) or several ({@code events}), and
 * {@code delivery}, how their deliveries are sent. Two doors to the same publishing:
 * {@code POST .../events/test} with the application's own token, and {@code POST /sandbox/v1/events}
 * with the operator key, naming the account in the body ({@code account_id}), for tests that drive
 * the sandbox over HTTP alone. Every key of the body is known, or the call is a 422 naming it.
 */
final class TestEventHandler {
    private static final Set<String> DELIVERY_KEYS = Set.of("signature", "copies", "delay", "order");
    private static final Set<String> EVENT_KEYS = Set.of("name", "object_id", "user_id");

    private final TestEvents testEvents;
    private final BearerAuth auth;
    private final OperatorAuth operator;

    TestEventHandler(TestEvents testEvents, BearerAuth auth, OperatorAuth operator) {
        this.testEvents = testEvents;
        this.auth = auth;
        this.operator = operator;
    }

    /** The body as read: the events in the order given, whether they came as a list, their delivery options. */
    private record Body(JsonNode json, List<TestEvents.Item> items, boolean listed, TestDelivery options) {}

    /** POST /events/account/{account_id}/events/test: as the application of the access token. */
    void send(Context ctx) {
        var who = auth.require(ctx);
        Body b = body(RequestBodies.objectBody(ctx), Set.of());
        List<Event> sent = testEvents.send(who, ctx.pathParam("account_id"), b.items(), b.options(), ctx.header("Idempotency-Key"), b.listed());
        answer(ctx, b, sent);
    }

    /** POST /sandbox/v1/events: as the operator publishes, for {@code account_id}; every event names its user_id. */
    void sendAsOperator(Context ctx) {
        operator.require(ctx);
        Body b = body(RequestBodies.objectBody(ctx), Set.of("account_id"));
        String account = RequestBodies.text(b.json(), "account_id");
        if (account == null || account.isBlank()) throw ServiceException.invalid("account_id", "is required: the account the events are published for");
        answer(ctx, b, testEvents.sendAsOperator(account, b.items(), b.options(), ctx.header("Idempotency-Key")));
    }

    private static void answer(Context ctx, Body b, List<Event> sent) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (b.listed()) out.put("events", sent.stream().map(EventJson::of).toList());
        else out.put("event", EventJson.of(sent.getFirst()));
        out.put("delivery", b.options().json());
        ctx.status(202).json(out);
    }

    /** {@code route} holds the keys the route adds to the top level (account_id for the operator's). */
    private static Body body(JsonNode json, Set<String> route) {
        JsonNode list = json.get("events");
        boolean listed = list != null && !list.isNull();
        if (listed && json.has("name")) throw ServiceException.invalid("events", "give either name (one event) or events (several), not both");
        onlyTopLevelKeys(json, listed, route);
        List<TestEvents.Item> items = listed ? items(list) : List.of(item(json));
        return new Body(json, items, listed, options(json.get("delivery")));
    }

    /**
     * Every top-level key is one the body can hold: with {@code events}, the events and delivery; with
     * one event, its fields and delivery. A misplaced delivery option or event field says where it goes.
     */
    private static void onlyTopLevelKeys(JsonNode json, boolean listed, Set<String> route) {
        Set<String> known = new TreeSet<>(route);
        known.add("delivery");
        if (listed) known.add("events");
        else known.addAll(EVENT_KEYS);
        List<ServiceException.FieldViolation> bad = new ArrayList<>();
        for (Iterator<String> it = json.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (known.contains(k)) continue;
            String why = DELIVERY_KEYS.contains(k) ? "is an option of delivery: {\"delivery\": {\"" + k + "\": ...}}"
                    : EVENT_KEYS.contains(k) ? "belongs in each of events when sending several"
                    : "is not a field of a test event; known: " + String.join(", ", known);
            bad.add(new ServiceException.FieldViolation(EchoedInput.printable(k, 40), why));
        }
        if (!bad.isEmpty()) throw ServiceException.invalid(bad);
    }

    private static List<TestEvents.Item> items(JsonNode list) {
        if (!list.isArray()) throw ServiceException.invalid("events", "must be a list of events ({\"name\", \"object_id\", \"user_id\"})");
        List<TestEvents.Item> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String at = "events[" + i + "]";
            if (!e.isObject()) throw ServiceException.invalid(at, "must be an object {\"name\", \"object_id\", \"user_id\"}");
            onlyKeys(e, EVENT_KEYS, at + ".");
            out.add(item(e));
        }
        return out;
    }

    private static TestEvents.Item item(JsonNode e) {
        return new TestEvents.Item(RequestBodies.scalarText(e, "name"), EventHandlers.id(e, "object_id"), EventHandlers.id(e, "user_id"));
    }

    /** The delivery options; unknown keys are refused, so a typo cannot pass as a plain delivery. */
    private static TestDelivery options(JsonNode d) {
        if (d == null || d.isNull()) return TestDelivery.PLAIN;
        if (!d.isObject()) throw ServiceException.invalid("delivery", "must be an object {\"signature\", \"copies\", \"delay\", \"order\"}");
        onlyKeys(d, DELIVERY_KEYS, "delivery.");
        JsonNode copies = d.get("copies");
        Integer n = null;
        if (copies != null && !copies.isNull()) {
            if (!copies.isIntegralNumber() || !copies.canConvertToInt()) throw ServiceException.invalid("delivery.copies", "must be an integer from 1 to " + TestDelivery.MAX_COPIES);
            n = copies.intValue();
        }
        return TestDelivery.parse("delivery.", text(d, "signature"), n, text(d, "delay"), text(d, "order"));
    }

    private static String text(JsonNode d, String field) {
        return RequestBodies.text(d, field, "delivery." + field, "must be a string");
    }

    private static void onlyKeys(JsonNode object, Set<String> known, String prefix) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) throw ServiceException.invalid(prefix + EchoedInput.printable(k, 40), "is not an option; known: " + new TreeSet<>(known));
        }
    }
}
