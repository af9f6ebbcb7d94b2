package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import io.javalin.http.Context;

/** Ids in paths. A callback id that is not a positive integer names no callback: 404, as for an unknown one. */
final class PathIds {
    private PathIds() {}

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
