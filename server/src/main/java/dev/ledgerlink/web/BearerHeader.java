package dev.ledgerlink.web;

import io.javalin.http.Context;

/**
 * The one reading of "Authorization: Bearer <credential>" (RFC 6750 §2.1; the scheme name is
 * case-insensitive): used for access tokens ({@link BearerAuth}) and the operator key
 * ({@link EventHandlers}). Null when the header is missing, blank or of another scheme.
 */
final class BearerHeader {
    private static final String SCHEME = "Bearer ";

    private BearerHeader() {}

    static String credential(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || header.length() < SCHEME.length()
                || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) return null;
        return header.substring(SCHEME.length()).trim();
    }

    static boolean present(Context ctx) {
        String header = ctx.header("Authorization");
        return header != null && !header.isBlank();
    }
}
