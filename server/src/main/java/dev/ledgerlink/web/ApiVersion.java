package dev.ledgerlink.web;

import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import io.javalin.http.Context;

/** The Api-Version rule: absent or "alpha" is served, anything else is a 400 naming what is supported. */
public final class ApiVersion {
    public static final String HEADER = "Api-Version";
    public static final String SUPPORTED = "alpha";

    private ApiVersion() {}

    static void check(Context ctx) {
        String v = ctx.header(HEADER);
        if (v != null && !v.trim().equals(SUPPORTED)) {
            throw ServiceException.badRequest("Unsupported Api-Version '" + EchoedInput.printable(v, 40) + "'; supported versions: " + SUPPORTED + ".");
        }
    }
}
