package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.OperatorKey;
import io.javalin.http.Context;

/**
 * The operator key check of the internal routes (event publishing, the admin API, introspection by
 * the platform's services): {@code Authorization: Bearer <operator key>}, compared in constant time
 * by {@link OperatorKey}. One instance per server, so every route checks the same key.
 */
final class OperatorAuth {
    private final OperatorKey key;

    OperatorAuth(OperatorKey key) {
        this.key = key;
    }

    /** 403 when no key is configured (the internal routes are off), 401 when it is missing or wrong. */
    void require(Context ctx) {
        if (!key.configured()) {
            throw ServiceException.forbidden("The internal API is disabled: set events.operator-key (LEDGERLINK_EVENTS_OPERATOR_KEY) to enable it.");
        }
        String presented = BearerHeader.credential(ctx);
        if (presented == null) throw ServiceException.unauthorized("The operator key is required (Authorization: Bearer <operator key>).");
        if (!key.matches(presented)) throw ServiceException.unauthorized("The operator key is wrong.");
    }

    /** Whether this request carries the operator key (introspection also accepts client credentials). */
    boolean presentedBy(Context ctx) {
        return key.matches(BearerHeader.credential(ctx));
    }
}
