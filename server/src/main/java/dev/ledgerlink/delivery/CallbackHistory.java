package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.oauth.TokenPrincipal;

/**
 * The access rule of a callback's delivery history (GET .../callbacks/{callback_id}/deliveries) and
 * of its recover (POST .../callbacks/{callback_id}/recover): whoever may read the callback may read
 * its history and recover its dropped deliveries, with exactly the same answers (401, 403 for a
 * missing scope, 404 for another account's or application's callback).
 */
public final class CallbackHistory {
    private final CallbackService callbacks;
    private final DeliveryReads reads;
    private final DeliveryService deliveries;

    public CallbackHistory(CallbackService callbacks, DeliveryReads reads, DeliveryService deliveries) {
        this.callbacks = callbacks;
        this.reads = reads;
        this.deliveries = deliveries;
    }

    public DeliveryReads.DeliveryPage read(TokenPrincipal who, String accountId, long callbackId, int page, int perPage) {
        callbacks.get(who, accountId, callbackId);
        return reads.history(accountId, callbackId, page, perPage);
    }

    /** Recover (DeliveryService#recover) for whoever may read the callback, with the same answers. */
    public DeliveryService.Recovered recover(TokenPrincipal who, String accountId, long callbackId, String since, String until) {
        callbacks.get(who, accountId, callbackId);
        return deliveries.recover(accountId, callbackId, since, until);
    }
}
