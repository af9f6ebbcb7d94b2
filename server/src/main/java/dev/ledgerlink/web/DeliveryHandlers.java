package dev.ledgerlink.web;

import dev.ledgerlink.callbacks.CallbackSearch;
import dev.ledgerlink.delivery.DeliveryJson;
import dev.ledgerlink.delivery.CallbackHistory;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.Map;

/**
 * GET .../callbacks/{callback_id}/deliveries: a callback's delivery history, paged like the list; who
 * may read it is {@link CallbackHistory}'s rule.
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
}
