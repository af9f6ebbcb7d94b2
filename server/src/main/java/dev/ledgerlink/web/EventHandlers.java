package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventJson;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.tracing.TraceHeaders;
import io.javalin.http.Context;
import java.util.Map;

/** POST /internal/v1/events: other internal services publish events here, with the operator key (not OAuth). */
public final class EventHandlers {
    private final EventPublisher publisher;
    private final OperatorAuth operator;

    EventHandlers(EventPublisher publisher, OperatorAuth operator) {
        this.publisher = publisher;
        this.operator = operator;
    }

    void publish(Context ctx) {
        operator.require(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        Event e = publisher.publish(new EventPublisher.Request(
                RequestBodies.scalarText(body, "name"), RequestBodies.scalarText(body, "account_id"), id(body, "object_id"), id(body, "user_id"),
                ctx.header("Idempotency-Key"), TraceHeaders.received(ctx.header(TraceHeaders.TRACEPARENT), ctx.header(TraceHeaders.TRACESTATE))));
        ctx.status(202).json(Map.of("event", EventJson.of(e)));
    }

    /** A positive integer given as a JSON number or a string of digits; anything else fails validation as absent. */
    static Long id(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) return null;
        if (n.isIntegralNumber() && n.canConvertToLong()) return n.asLong();
        if (n.isTextual() && n.asText().matches("[0-9]{1,18}")) return Long.parseLong(n.asText());
        return -1L;
    }
}
