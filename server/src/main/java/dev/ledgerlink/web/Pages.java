package dev.ledgerlink.web;

import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.LoginSessions;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the server-rendered pages (the authorization page, the console) share: the precompiled JTE
 * templates, the security headers every page carries, and the session cookie.
 */
public final class Pages {
    private static final TemplateEngine TEMPLATES = TemplateEngine.createPrecompiled(ContentType.Html);

    private Pages() {}

    /** Renders a template as the response; an Optional parameter becomes its value or null. */
    public static void render(Context ctx, String template, Map<String, Object> params) {
        Map<String, Object> p = new HashMap<>(params);
        p.replaceAll((k, v) -> v instanceof Optional<?> o ? o.orElse(null) : v);
        StringOutput out = new StringOutput();
        TEMPLATES.render(template, p, out);
        ctx.contentType("text/html; charset=utf-8").result(out.toString());
    }

    /** Pages are never framed (clickjacking), cached or given a referrer; {@code csp} says what else they may load. */
    public static void headers(Context ctx, String csp) {
        ctx.header("Content-Security-Policy", csp);
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Cache-Control", "no-store");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Content-Type-Options", "nosniff");
    }

    /** Sets a session cookie: random id only, HttpOnly, SameSite=Lax, Secure when served over https. */
    public static void sessionCookie(Context ctx, Settings settings, String name, String path, LoginSessions.Opened opened) {
        StringBuilder c = new StringBuilder(name).append('=').append(opened.cookieValue())
                .append("; Path=").append(path).append("; Max-Age=").append(LoginSessions.LIFETIME.toSeconds())
                .append("; HttpOnly; SameSite=Lax");
        if (PublicUrls.isHttps(settings, ctx)) c.append("; Secure");
        ctx.header("Set-Cookie", c.toString());
    }

    /** Removes a session cookie from the browser. */
    public static void clearCookie(Context ctx, Settings settings, String name, String path) {
        StringBuilder c = new StringBuilder(name).append("=; Path=").append(path).append("; Max-Age=0; HttpOnly; SameSite=Lax");
        if (PublicUrls.isHttps(settings, ctx)) c.append("; Secure");
        ctx.header("Set-Cookie", c.toString());
    }
}
