package dev.ledgerlink.web;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import io.javalin.http.Context;

/**
 * {base_url} and {auth_url} (decisions.md, "Addresses"): as configured; when base-url is not set,
 * development mode takes them from the request's Host header (a sandbox reached under several
 * names), and any other server uses its own bound address and port, so a client-supplied Host never
 * shapes what a production server announces (the server warns at start that base-url should be set).
 */
final class PublicUrls {
    private PublicUrls() {}

    static String base(Settings settings, Context ctx) {
        String configured = settings.get(Setting.BASE_URL);
        if (!configured.isBlank()) return stripSlash(configured);
        if (settings.flag(Setting.DEV)) return ctx.scheme() + "://" + ctx.host();
        return "http://" + boundHost(settings, ctx) + ":" + ctx.req().getLocalPort();
    }

    /** The configured bind address; for a wildcard bind, the local address this connection arrived on (never the client's word). */
    private static String boundHost(Settings settings, Context ctx) {
        String host = settings.get(Setting.HTTP_HOST).trim();
        if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) host = ctx.req().getLocalAddr();
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    static String auth(Settings settings, Context ctx) {
        String configured = settings.get(Setting.AUTH_URL);
        return configured.isBlank() ? base(settings, ctx) : stripSlash(configured);
    }

    /** True when the page is served over https: the configured auth URL says so, or the request came that way. */
    static boolean isHttps(Settings settings, Context ctx) {
        return auth(settings, ctx).startsWith("https://") || "https".equalsIgnoreCase(ctx.scheme());
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
