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

    /** Any other numeric id in a path (the admin API): the same rule under the parameter's own name. */
    static long positive(Context ctx, String name) {
        String text = ctx.pathParam(name);
        if (text.matches("[0-9]{1,18}")) {
            long id = Long.parseLong(text);
            if (id > 0) return id;
        }
        throw ServiceException.notFound();
    }
}
