package dev.ledgerlink.web;

import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.Map;

/**
 * GET .../callbacks/{callback_id}/deliveries: a callback's delivery history, to whoever may read the
 * callback itself (the same bearer, membership, application and scope checks), paged like the list.
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

    private static long callbackId(Context ctx) {
        try {
            long id = Long.parseLong(ctx.pathParam("callback_id"));
            if (id > 0) return id;
        } catch (NumberFormatException e) {
            // falls through
        }
        throw ServiceException.notFound();
    }
}
