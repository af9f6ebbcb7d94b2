package dev.ledgerlink.web;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import io.javalin.http.Context;

/** {base_url} and {auth_url}: as configured, else this request's own scheme and host (development). */
final class PublicUrls {
    private PublicUrls() {}

    static String base(Settings settings, Context ctx) {
        String configured = settings.get(Setting.BASE_URL);
        return configured.isBlank() ? ctx.scheme() + "://" + ctx.host() : stripSlash(configured);
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
