package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventJson;
import dev.ledgerlink.sandbox.TestEvents;
import io.javalin.http.Context;
import java.util.Map;

/** POST /events/account/{account_id}/events/test (development mode only): a test event with the app's own token. */
final class TestEventHandler {
    private final TestEvents testEvents;
    private final BearerAuth auth;

    TestEventHandler(TestEvents testEvents, BearerAuth auth) {
        this.testEvents = testEvents;
        this.auth = auth;
    }

    void send(Context ctx) {
        var who = auth.require(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        Event e = testEvents.send(who, ctx.pathParam("account_id"), RequestBodies.scalarText(body, "name"),
                EventHandlers.id(body, "object_id"), ctx.header("Idempotency-Key"));
        ctx.status(202).json(Map.of("event", EventJson.of(e)));
    }
}
