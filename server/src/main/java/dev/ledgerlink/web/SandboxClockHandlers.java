package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.sandbox.SandboxClock;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** {base}/sandbox/v1/clock (development mode only, operator key): read, move forward, set, back to real time. */
final class SandboxClockHandlers {
    private final SandboxClock clock;
    private final OperatorAuth operator;

    SandboxClockHandlers(SandboxClock clock, OperatorAuth operator) {
        this.clock = clock;
        this.operator = operator;
    }

    void get(Context ctx) {
        operator.require(ctx);
        render(ctx, clock.read());
    }

    /** {"advance": "PT13H"} or {"set": "2027-01-01T00:00:00Z"}: exactly one. */
    void move(Context ctx) {
        operator.require(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        var unknown = new java.util.ArrayList<String>();
        body.fieldNames().forEachRemaining(f -> { if (!f.equals("advance") && !f.equals("set")) unknown.add(f); });
        if (!unknown.isEmpty()) throw ServiceException.invalid(unknown.get(0), "is not a field of a clock move (advance or set)");
        String advance = RequestBodies.text(body, "advance", "advance", "must be an ISO-8601 duration string, for example \"PT13H\"");
        String set = RequestBodies.text(body, "set", "set", "must be an ISO-8601 instant string, for example \"2027-01-01T00:00:00Z\"");
        if (advance == null && set == null) {
            throw ServiceException.invalid("advance", "is required (a duration such as \"PT13H\"), or set instead (an instant such as \"2027-01-01T00:00:00Z\")");
        }
        if (advance != null && set != null) throw ServiceException.invalid("set", "must not be given with advance: move the clock by a duration or to an instant, not both");
        render(ctx, advance != null ? clock.advance(advance) : clock.set(set));
    }

    void reset(Context ctx) {
        operator.require(ctx);
        render(ctx, clock.reset());
    }

    private static void render(Context ctx, SandboxClock.Reading r) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("now", r.now().toString());
        body.put("offset", r.offset().toString());
        ctx.header("Cache-Control", "no-store").json(body);
    }
}
