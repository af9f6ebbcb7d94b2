package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.Map;

/**
 * GET .../callbacks/{callback_id}/deliveries (a callback's delivery history, paged like the list) and
 * POST .../callbacks/{callback_id}/recover, to whoever may read the callback itself (the same bearer,
 * membership, application and scope checks).
 */
final class DeliveryHandlers {
    private final CallbackService callbacks;
    private final DeliveryService deliveries;
    private final BearerAuth auth;

    DeliveryHandlers(CallbackService callbacks, DeliveryService deliveries, BearerAuth auth) {
        this.callbacks = callbacks;
        this.deliveries = deliveries;
        this.auth = auth;
    }

    void history(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        String accountId = ctx.pathParam("account_id");
        long id = callbackId(ctx);
        callbacks.get(who, accountId, id);   // 404/403 exactly as reading the callback would
        CallbackSearch paging = CallbackSearch.parse(ctx.queryParamMap());
        var page = deliveries.history(accountId, id, paging.page(), paging.perPage());
        ctx.json(Map.of("response", Map.of("result", DeliveryJson.page(page))));
    }

    /**
     * POST .../callbacks/{callback_id}/recover {"since", "until"?}: re-queues the callback's dropped
     * deliveries of that window, paced (delivery.Recovery); answers how many.
     */
    void recover(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        String accountId = ctx.pathParam("account_id");
        long id = callbackId(ctx);
        callbacks.get(who, accountId, id);   // 404/403 exactly as reading the callback would
        JsonNode body = Json.objectBody(ctx);
        var r = deliveries.recover(accountId, id, RecoverJson.text(body, "since"), RecoverJson.text(body, "until"));
        ctx.json(Map.of("response", Map.of("result", AdminJson.recover(r))));
    }

    static long callbackId(Context ctx) {
        try {
            long id = Long.parseLong(ctx.pathParam("callback_id"));
            if (id > 0) return id;
        } catch (NumberFormatException e) {
            // falls through
        }
        throw ServiceException.notFound();
    }
}
