package dev.ledgerlink.web;

import dev.ledgerlink.callbacks.CallbackJson;
import dev.ledgerlink.oauth.ConnectedAppJson;
import dev.ledgerlink.oauth.GrantJson;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.AccountsJson;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.Recovery;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The admin API under /internal/v1/admin (operator key): parse, call the capability service the CLI
 * calls too, render. Lists share {@link Paging} and answer {"page", "pages", "per_page", "total",
 * "<items>": [...]}; one resource answers {"<name>": {...}}; errors are the documented error body.
 */
final class AdminHandlers {
    private final Services s;
    private final OperatorAuth operator;

    AdminHandlers(Services s, OperatorAuth operator) {
        this.s = s;
        this.operator = operator;
    }

    /** {"rate_limit": 5, "ordered": true}: the operator's settings of the callback; what the body leaves out stays. */
    Map<String, ?> changeCallback(Context ctx) {
        long id = PathIds.positive(ctx, "callback_id");
        return callbackJson(s.operatorCallbacks().change(id, OperatorSettingsJson.parse(RequestBodies.objectBody(ctx))));
    }

    Map<String, ?> disableCallback(Context ctx) {
        return callbackJson(s.operatorCallbacks().disable(PathIds.positive(ctx, "callback_id")));
    }

    Map<String, ?> enableCallback(Context ctx) {
        return callbackJson(s.operatorCallbacks().enable(PathIds.positive(ctx, "callback_id")));
    }

    Map<String, ?> redeliver(Context ctx) {
        return Map.of("delivery", DeliveryJson.of(s.deliveries().redeliver(PathIds.positive(ctx, "delivery_id"))));
    }

    Map<String, ?> grant(Context ctx) {
        return Map.of("grant", GrantJson.of(s.oauth().grants().show(PathIds.positive(ctx, "grant_id"))));
    }

    Map<String, ?> revokeGrant(Context ctx) {
        return Map.of("grant", GrantJson.of(s.oauth().grants().revoke(PathIds.positive(ctx, "grant_id"))));
    }

    /** The user's connected applications, as the user sees them on the account page. */
    Map<String, ?> connectedApps(Context ctx) {
        long userId = existingUser(ctx);
        return Map.of("connected_apps", s.oauth().connectedApps().of(userId).stream().map(ConnectedAppJson::of).toList());
    }

    /** An operator disconnects an application for the user ({client_id}: its client_id or numeric id); audited. */
    Map<String, ?> disconnectApp(Context ctx) {
        long userId = existingUser(ctx);
        var d = s.oauth().connectedApps().disconnect(userId, ctx.pathParam("client_id"), dev.ledgerlink.oauth.ConnectedApps.By.OPERATOR, null);
        return Map.of("disconnected", ConnectedAppJson.disconnected(d));
    }

    /** An operator removes the user's second factor (a lost phone and lost recovery codes); audited. */
    Map<String, ?> resetSecondFactor(Context ctx) {
        long userId = existingUser(ctx);
        boolean had = s.oauth().secondFactor().reset(userId);
        return Map.of("second_factor", Map.of("user_id", userId, "enrolled", false, "removed", had));
    }

    private long existingUser(Context ctx) {
        long id = PathIds.positive(ctx, "user_id");
        if (s.users().find(id).isEmpty()) throw ServiceException.notFound("No user " + id + ".");
        return id;
    }

    /** Every admin route: the operator key first, then the handler's answer as JSON. */
    io.javalin.http.Handler op(Function<Context, Map<String, ?>> handler) {
        return ctx -> {
            operator.require(ctx);
            ctx.header("Cache-Control", "no-store");
            ctx.json(handler.apply(ctx));
        };
    }

    Map<String, ?> accounts(Context ctx) {
        return s.accounts().page(paging(ctx)).json("accounts", AccountsJson::account);
    }

    Map<String, ?> account(Context ctx) {
        String id = ctx.pathParam("account_id");
        return Map.of("account", AccountsJson.account(s.accounts().find(id).orElseThrow(() -> ServiceException.notFound("No account " + id + "."))));
    }

    Map<String, ?> users(Context ctx) {
        return s.users().page(paging(ctx)).json("users", AccountsJson::user);
    }

    Map<String, ?> user(Context ctx) {
        long id = PathIds.positive(ctx, "user_id");
        return Map.of("user", AccountsJson.user(s.users().find(id).orElseThrow(() -> ServiceException.notFound("No user " + id + "."))));
    }

    Map<String, ?> memberships(Context ctx) {
        Validation v = new Validation();
        Paging paging = Paging.parse(ctx.queryParamMap(), v);
        Long userId = longParam(ctx, "user_id", v);
        v.throwIfInvalid();
        return s.accounts().members(ctx.queryParam("account_id"), userId, paging).json("memberships", AccountsJson::membership);
    }

    Map<String, ?> applications(Context ctx) {
        Instant now = s.clock().instant();
        return s.applications().page(paging(ctx)).json("applications", a -> AccountsJson.application(a, now));
    }

    Map<String, ?> application(Context ctx) {
        return Map.of("application", AccountsJson.application(s.applications().show(ctx.pathParam("id")), s.clock().instant()));
    }

    /** {"name", "redirect_uris": [...], "scopes": [...]}: the secret is in this answer only. */
    Map<String, ?> createApplication(Context ctx) {
        JsonNode body = RequestBodies.objectBody(ctx);
        var created = s.applications().create(RequestBodies.text(body, "name"), strings(body, "redirect_uris"), strings(body, "scopes"));
        ctx.status(201);
        return Map.of("application", AccountsJson.created(created, s.clock().instant()));
    }

    /** Body optional: {"keep_old": "P7D"} keeps the old secret valid that long. */
    Map<String, ?> rotateSecret(Context ctx) {
        String keepOld = ctx.bodyAsBytes().length == 0 ? null : RequestBodies.text(RequestBodies.objectBody(ctx), "keep_old");
        return Map.of("application", AccountsJson.created(s.applications().rotateSecret(ctx.pathParam("id"), keepOld), s.clock().instant()));
    }

    Map<String, ?> retireSecret(Context ctx) {
        return Map.of("application", AccountsJson.application(s.applications().retireSecret(ctx.pathParam("id")), s.clock().instant()));
    }

    Map<String, ?> callbacks(Context ctx) {
        Validation v = new Validation();
        Paging paging = Paging.parse(ctx.queryParamMap(), v);
        v.throwIfInvalid();
        return s.operatorCallbacks().list(ctx.queryParam("state"), ctx.queryParam("account_id"), paging).json("callbacks", CallbackJson::operatorView);
    }

    Map<String, ?> callback(Context ctx) {
        return callbackJson(s.operatorCallbacks().show(PathIds.positive(ctx, "callback_id")));
    }

    Map<String, ?> recover(Context ctx) {
        JsonNode body = RequestBodies.objectBody(ctx);
        var r = s.deliveries().recover(null, PathIds.positive(ctx, "callback_id"), RecoverJson.text(body, "since"), RecoverJson.text(body, "until"));
        return Map.of("recover", DeliveryJson.recovered(r));
    }

    /** ?callback_id, ?state (pending, held, delivered, dropped), ?since, ?until (ISO-8601 instants, on when each was queued). */
    Map<String, ?> deliveries(Context ctx) {
        Validation v = new Validation();
        Paging paging = Paging.parse(ctx.queryParamMap(), v);
        Long callbackId = longParam(ctx, "callback_id", v);
        Instant since = instantParam(ctx, "since", v);
        Instant until = instantParam(ctx, "until", v);
        v.throwIfInvalid();
        return s.deliveryReads().search(callbackId, ctx.queryParam("state"), since, until, paging).json("deliveries", DeliveryJson::of);
    }

    /** ?user_id and/or ?application_id (the numeric id or the client_id). */
    Map<String, ?> grants(Context ctx) {
        Validation v = new Validation();
        Paging paging = Paging.parse(ctx.queryParamMap(), v);
        Long userId = longParam(ctx, "user_id", v);
        String app = ctx.queryParam("application_id");
        v.throwIfInvalid();
        Long applicationId = app == null || app.isBlank() ? null : s.applications().show(app.trim()).id();
        return s.oauth().grants().list(userId, applicationId, paging).json("grants", GrantJson::of);
    }

    private static Map<String, ?> callbackJson(Callback c) {
        return Map.of("callback", CallbackJson.operatorView(c));
    }

    private static Paging paging(Context ctx) {
        return Paging.parse(ctx.queryParamMap());
    }

    private static Long longParam(Context ctx, String name, Validation v) {
        String text = ctx.queryParam(name);
        if (text == null || text.isBlank()) return null;
        if (text.trim().matches("[0-9]{1,18}")) return Long.parseLong(text.trim());
        v.add(name, "must be a positive integer");
        return null;
    }

    private static Instant instantParam(Context ctx, String name, Validation v) {
        String text = ctx.queryParam(name);
        return text == null || text.isBlank() ? null : Recovery.parseInstant(text, name, v);
    }

    private static List<String> strings(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) return List.of();
        if (n.isTextual()) return List.of(n.asText());
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            for (JsonNode item : n) {
                if (!item.isTextual()) throw ServiceException.invalid(field, "must be an array of strings");
                out.add(item.asText());
            }
            return out;
        }
        throw ServiceException.invalid(field, "must be an array of strings");
    }
}
