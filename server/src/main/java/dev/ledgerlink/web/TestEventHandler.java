package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
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

/**
 * POST /events/account/{account_id}/events/test (development mode only): test events with the app's
 * own token. One event ({@code name}, {@code object_id}, {@code user_id}) or several ({@code events}),
 * and {@code delivery}, how their deliveries are sent (docs/sandbox.md, "Test deliveries").
 */
final class TestEventHandler {
    private static final Set<String> DELIVERY_KEYS = Set.of("signature", "copies", "delay", "order");
    private static final Set<String> EVENT_KEYS = Set.of("name", "object_id", "user_id");

    private final TestEvents testEvents;
    private final BearerAuth auth;

    TestEventHandler(TestEvents testEvents, BearerAuth auth) {
        this.testEvents = testEvents;
        this.auth = auth;
    }

    void send(Context ctx) {
        var who = auth.require(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        JsonNode list = body.get("events");
        boolean listed = list != null && !list.isNull();
        if (listed && body.has("name")) throw ServiceException.invalid("events", "give either name (one event) or events (several), not both");
        List<TestEvents.Item> items = listed ? items(list) : List.of(item(body, ""));
        TestDelivery options = options(body.get("delivery"));
        List<Event> sent = testEvents.send(who, ctx.pathParam("account_id"), items, options, ctx.header("Idempotency-Key"), listed);
        Map<String, Object> out = new LinkedHashMap<>();
        if (listed) out.put("events", sent.stream().map(EventJson::of).toList());
        else out.put("event", EventJson.of(sent.getFirst()));
        out.put("delivery", options.json());
        ctx.status(202).json(out);
    }

    private static List<TestEvents.Item> items(JsonNode list) {
        if (!list.isArray()) throw ServiceException.invalid("events", "must be a list of events ({\"name\", \"object_id\", \"user_id\"})");
        List<TestEvents.Item> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String at = "events[" + i + "]";
            if (!e.isObject()) throw ServiceException.invalid(at, "must be an object {\"name\", \"object_id\", \"user_id\"}");
            onlyKeys(e, EVENT_KEYS, at + ".");
            out.add(item(e, at + "."));
        }
        return out;
    }

    private static TestEvents.Item item(JsonNode e, String at) {
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
            if (!known.contains(k)) throw ServiceException.invalid(prefix + dev.ledgerlink.errors.EchoedInput.printable(k, 40), "is not an option; known: " + new java.util.TreeSet<>(known));
        }
    }
}
