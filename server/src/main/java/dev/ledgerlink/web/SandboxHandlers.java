package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.sandbox.FaultRule;
import dev.ledgerlink.sandbox.Faults;
import dev.ledgerlink.sandbox.RequestJournal;
import dev.ledgerlink.sandbox.SandboxJson;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Development mode's controls under {base_url}/sandbox/v1/ (docs/sandbox.md), with the operator key:
 * the fault rules and the request journal. Outside development mode these routes do not exist.
 */
final class SandboxHandlers {
    private static final Set<String> RULE_FIELDS = Set.of("route", "client_id", "grant_type", "effect", "times");
    private static final Set<String> EFFECT_FIELDS = Set.of("status", "retry_after", "error", "latency_ms");
    static final int DEFAULT_LIMIT = 50;

    private final Faults faults;
    private final RequestJournal journal;
    private final OperatorAuth operator;

    SandboxHandlers(Faults faults, RequestJournal journal, OperatorAuth operator) {
        this.faults = faults;
        this.journal = journal;
        this.operator = operator;
    }

    void addFault(Context ctx) {
        operator.require(ctx);
        FaultRule rule = faults.add(draft(RequestBodies.objectBody(ctx)));
        ctx.status(HttpStatus.CREATED).json(Map.of("fault", SandboxJson.fault(rule)));
    }

    void listFaults(Context ctx) {
        operator.require(ctx);
        ctx.json(Map.of("faults", faults.list().stream().map(SandboxJson::fault).toList()));
    }

    void clearFaults(Context ctx) {
        operator.require(ctx);
        ctx.json(Map.of("cleared", faults.clear()));
    }

    void requests(Context ctx) {
        operator.require(ctx);
        int limit = limit(ctx.queryParam("limit"));
        ctx.json(Map.of("requests", journal.newest(ctx.queryParam("client_id"), limit).stream().map(SandboxJson::request).toList()));
    }

    /** limit=1..1000, default 50; anything else a 422 naming it. */
    static int limit(String raw) {
        if (raw == null || raw.isBlank()) return DEFAULT_LIMIT;
        if (!raw.matches("\\d{1,4}") || Integer.parseInt(raw) < 1 || Integer.parseInt(raw) > RequestJournal.MAX_LIMIT) {
            throw ServiceException.invalid("limit", "must be a number from 1 to " + RequestJournal.MAX_LIMIT);
        }
        return Integer.parseInt(raw);
    }

    /** The body {"route", "client_id", "grant_type", "effect": {...}, "times"} as a draft; unknown or mistyped fields are 422s. */
    private static FaultRule.Draft draft(JsonNode body) {
        List<ServiceException.FieldViolation> bad = new ArrayList<>();
        unknown(body, RULE_FIELDS, "", bad);
        JsonNode effect = body.get("effect");
        if (effect == null || effect.isNull()) {
            effect = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        } else if (!effect.isObject()) {
            bad.add(new ServiceException.FieldViolation("effect", "must be an object: {\"status\": 503, \"retry_after\": 2}, "
                    + "{\"status\": 429}, {\"error\": \"invalid_grant\"} or {\"latency_ms\": 1500}"));
            effect = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        unknown(effect, EFFECT_FIELDS, "effect.", bad);
        var draft = new FaultRule.Draft(text(body, "route", bad), text(body, "client_id", bad), text(body, "grant_type", bad),
                number(effect, "status", "effect.status", bad), number(effect, "retry_after", "effect.retry_after", bad),
                text(effect, "error", "effect.error", bad), number(effect, "latency_ms", "effect.latency_ms", bad),
                number(body, "times", "times", bad));
        if (!bad.isEmpty()) throw ServiceException.invalid(bad);
        return draft;
    }

    private static void unknown(JsonNode object, Set<String> known, String prefix, List<ServiceException.FieldViolation> bad) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                bad.add(new ServiceException.FieldViolation(prefix + dev.ledgerlink.errors.EchoedInput.printable(name, 40), "is not a field of a fault rule"));
            }
        }
    }

    private static String text(JsonNode object, String field, List<ServiceException.FieldViolation> bad) {
        return text(object, field, field, bad);
    }

    private static String text(JsonNode object, String field, String reported, List<ServiceException.FieldViolation> bad) {
        JsonNode n = object.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isTextual()) {
            bad.add(new ServiceException.FieldViolation(reported, "must be a string"));
            return null;
        }
        return n.textValue();
    }

    private static Integer number(JsonNode object, String field, String reported, List<ServiceException.FieldViolation> bad) {
        JsonNode n = object.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            bad.add(new ServiceException.FieldViolation(reported, "must be a whole number"));
            return null;
        }
        return n.intValue();
    }
}
