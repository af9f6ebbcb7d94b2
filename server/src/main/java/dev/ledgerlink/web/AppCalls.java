package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.sandbox.FaultRoute;
import io.javalin.http.Context;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * Which of the routes an application calls a request is (development mode's faults and journal), and
 * what it says about its client: the client_id of HTTP Basic (never the secret after the colon) or
 * of the body or query, and the grant_type. Reads what Javalin has already read or caches.
 */
final class AppCalls {
    private static final java.util.regex.Pattern CALLBACKS = java.util.regex.Pattern.compile("/events/account/[^/]+/events/callbacks(/.*)?");

    private AppCalls() {}

    /** The route, or null for every other path. */
    static FaultRoute routeOf(String rawPath) {
        String path = normalise(rawPath);
        return switch (path) {
            case "/oauth/authorize" -> FaultRoute.AUTHORIZE;
            case "/auth/oauth/token" -> FaultRoute.TOKEN;
            case "/auth/oauth/revoke" -> FaultRoute.REVOKE;
            case "/auth/oauth/introspect" -> FaultRoute.INTROSPECT;
            case "/auth/api/v1/users/me" -> FaultRoute.IDENTITY;
            default -> path.startsWith("/events/account/") && CALLBACKS.matcher(path).matches() ? FaultRoute.CALLBACKS : null;
        };
    }

    /** The client_id the request names itself (authorization page, token endpoints); null when it names none. */
    static String declaredClientId(Context ctx, FaultRoute route) {
        if (route == FaultRoute.AUTHORIZE) return ctx.queryParam("client_id");
        if (route != FaultRoute.TOKEN && route != FaultRoute.REVOKE && route != FaultRoute.INTROSPECT) return null;
        String basic = basicClientId(ctx);
        return basic != null ? basic : bodyParameter(ctx, "client_id");
    }

    /** The grant_type of a token request, or null. */
    static String grantType(Context ctx) {
        return bodyParameter(ctx, "grant_type");
    }

    /** The id part of "Authorization: Basic base64(id:secret)"; the secret is not kept. */
    private static String basicClientId(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) return null;
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A parameter of a form or JSON body, whichever the request sent; null when absent or unreadable. */
    private static String bodyParameter(Context ctx, String name) {
        String type = ctx.contentType() == null ? "" : ctx.contentType().toLowerCase(Locale.ROOT);
        try {
            if (type.startsWith("application/x-www-form-urlencoded")) return ctx.formParam(name);
            if (type.startsWith("application/json")) {
                JsonNode v = RequestBodies.objectBody(ctx).get(name);
                return v != null && v.isValueNode() && !v.isNull() ? v.asText() : null;
            }
        } catch (RuntimeException e) {
            return null;   // the endpoint itself refuses a body it cannot read
        }
        return null;
    }

    /** As the router reads it: repeated slashes as one, no trailing slash (most paths need neither, and pay nothing). */
    private static String normalise(String path) {
        if (!path.contains("//") && !(path.length() > 1 && path.endsWith("/"))) return path;
        String p = path.replaceAll("/{2,}", "/");
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }
}
