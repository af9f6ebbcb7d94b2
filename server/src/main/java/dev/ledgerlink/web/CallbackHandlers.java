package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.callbacks.CallbackJson;
import dev.ledgerlink.callbacks.CallbackPage;
import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.callbacks.UpdatedAt;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** /events/account/{account_id}/events/callbacks: parse, call {@link CallbackService}, render the envelopes of interface.md. */
final class CallbackHandlers {
    private static final Set<String> CALLBACK_FIELDS = Set.of("event", "uri", "verifier", "resend");

    private final CallbackService callbacks;
    private final BearerAuth auth;

    CallbackHandlers(CallbackService callbacks, BearerAuth auth) {
        this.callbacks = callbacks;
        this.auth = auth;
    }

    void register(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        JsonNode cb = callbackObject(ctx);
        rejectFields(cb, Set.of("verifier", "resend"), "is not accepted when registering a callback");
        Callback c = callbacks.register(who, accountId(ctx), text(cb, "event"), text(cb, "uri"));
        ctx.json(one(c));
    }

    void get(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        ctx.json(one(callbacks.get(who, accountId(ctx), PathIds.callbackId(ctx))));
    }

    void list(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        CallbackPage page = callbacks.list(who, accountId(ctx), CallbackSearch.parse(ctx.queryParamMap()));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("callbacks", page.callbacks().stream().map(CallbackJson::record).toList());
        result.put("page", page.page());
        result.put("pages", page.pages());
        result.put("per_page", page.perPage());
        result.put("total", page.total());
        ctx.json(Map.of("response", Map.of("result", result)));
    }

    /** One PUT, three meanings: {verifier} verifies, {resend: true} re-sends the code, {event?, uri?} updates. */
    void put(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        String accountId = accountId(ctx);
        long id = PathIds.callbackId(ctx);
        JsonNode cb = callbackObject(ctx);
        Callback c;
        if (cb.has("verifier")) {
            rejectFields(cb, Set.of("resend", "event", "uri"), "cannot be sent together with callback.verifier");
            String verifier = text(cb, "verifier");
            if (verifier == null || verifier.isEmpty()) throw ServiceException.invalid("callback.verifier", "must not be empty");
            c = callbacks.verify(who, accountId, id, verifier);
        } else if (cb.has("resend")) {
            rejectFields(cb, Set.of("event", "uri"), "cannot be sent together with callback.resend");
            JsonNode resend = cb.get("resend");
            if (!resend.isBoolean() || !resend.booleanValue()) throw ServiceException.invalid("callback.resend", "must be true");
            c = callbacks.resend(who, accountId, id);
        } else if (cb.has("event") || cb.has("uri")) {
            c = callbacks.update(who, accountId, id, text(cb, "event"), text(cb, "uri"));
        } else {
            throw ServiceException.invalid("callback", "must contain verifier, resend, or event and/or uri");
        }
        ctx.json(one(c));
    }

    void delete(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        callbacks.delete(who, accountId(ctx), PathIds.callbackId(ctx));
        ctx.json(Map.of("response", Map.of()));
    }

    private static Map<String, Object> one(Callback c) {
        return Map.of("response", Map.of("result", Map.of("callback", CallbackJson.record(c))));
    }

    private static String accountId(Context ctx) {
        return ctx.pathParam("account_id");
    }


    /** The body's "callback" object; malformed JSON is a 400, a missing object or an unknown field a 422. */
    private static JsonNode callbackObject(Context ctx) {
        JsonNode body = RequestBodies.objectBody(ctx);
        Validation v = new Validation();
        body.fieldNames().forEachRemaining(f -> {
            if (!f.equals("callback")) v.add(f, "is not a known field (the body is {\"callback\": {...}})");
        });
        JsonNode cb = body.get("callback");
        if (cb == null || !cb.isObject()) v.add("callback", "must be an object");
        v.throwIfInvalid();
        List<String> unknown = new java.util.ArrayList<>();
        cb.fieldNames().forEachRemaining(f -> {
            if (!CALLBACK_FIELDS.contains(f)) unknown.add(f);
        });
        Validation fields = new Validation();
        for (String f : unknown) fields.add("callback." + f, "is not a known field (event, uri, verifier, resend)");
        fields.throwIfInvalid();
        return cb;
    }

    private static void rejectFields(JsonNode cb, Set<String> fields, String why) {
        Validation v = new Validation();
        for (String f : fields) if (cb.has(f)) v.add("callback." + f, why);
        v.throwIfInvalid();
    }

    /** A string field, null when absent or null; any other JSON type is a 422. */
    private static String text(JsonNode cb, String field) {
        return RequestBodies.text(cb, field, "callback." + field, "must be a string");
    }
}
