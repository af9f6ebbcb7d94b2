package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.CallbackHistory;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.Map;

/**
 * GET .../callbacks/{callback_id}/deliveries (a callback's delivery history, paged like the list) and
 * POST .../callbacks/{callback_id}/recover; who may call them is {@link CallbackHistory}'s rule.
 */
final class DeliveryHandlers {
    private final CallbackHistory history;
    private final BearerAuth auth;

    DeliveryHandlers(CallbackHistory history, BearerAuth auth) {
        this.history = history;
        this.auth = auth;
    }

    void history(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        String accountId = ctx.pathParam("account_id");
        long id = PathIds.callbackId(ctx);
        CallbackSearch paging = CallbackSearch.parse(ctx.queryParamMap());
        var page = history.read(who, accountId, id, paging.page(), paging.perPage());
        ctx.json(Map.of("response", Map.of("result", DeliveryJson.page(page))));
    }

    /**
     * POST .../callbacks/{callback_id}/recover {"since", "until"?}: re-queues the callback's dropped
     * deliveries of that window, paced (delivery.Recovery); answers how many.
     */
    void recover(Context ctx) {
        TokenPrincipal who = auth.require(ctx);
        long id = PathIds.callbackId(ctx);
        JsonNode body = RequestBodies.objectBody(ctx);
        var r = history.recover(who, ctx.pathParam("account_id"), id, RecoverJson.text(body, "since"), RecoverJson.text(body, "until"));
        ctx.json(Map.of("response", Map.of("result", DeliveryJson.recovered(r))));
    }
}
