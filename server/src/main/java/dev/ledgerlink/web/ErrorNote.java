package dev.ledgerlink.web;

import io.javalin.http.Context;

/**
 * The refusal a response carries, noted where it is rendered (the OAuth error body, the API error
 * body, the authorization page's error page) so that development mode's journal can keep it without
 * reading the response back. Only the error code and the description shown to the client: never a secret.
 */
final class ErrorNote {
    private static final String ERROR = "ledgerlink.error";
    private static final String DESCRIPTION = "ledgerlink.error-description";

    private ErrorNote() {}

    static void note(Context ctx, String error, String description) {
        ctx.attribute(ERROR, error);
        ctx.attribute(DESCRIPTION, description);
    }

    static String error(Context ctx) {
        return ctx.attribute(ERROR);
    }

    static String description(Context ctx) {
        return ctx.attribute(DESCRIPTION);
    }
}
