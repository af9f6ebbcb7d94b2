package dev.ledgerlink.web.console;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.web.Pages;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * What every console page shares: the security headers, rendering inside the layout (navigation,
 * who is signed in, the sign-out form), and the mapping of refusals to pages: not signed in goes
 * to the sign-in page, a form without its CSRF token and a service's refusal are shown as pages.
 */
final class ConsolePage {
    /** Only ledgerlink's own script, styles and the live tail's connection; never framed. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private ConsolePage() {}

    /** Wraps a page handler with the headers and the refusal pages. */
    static Handler of(Handler page) {
        return ctx -> {
            Pages.headers(ctx, CSP);
            try {
                page.handle(ctx);
            } catch (ConsoleSession.SignInRequired e) {
                ctx.redirect("/console/sign-in", ctx.method().name().equals("GET") ? HttpStatus.FOUND : HttpStatus.SEE_OTHER);
            } catch (ConsoleSession.FormExpired e) {
                problem(ctx, HttpStatus.FORBIDDEN, "This form has expired",
                        "The form was not sent from this console page, or the page is too old. Reload the page and try again.");
            } catch (ServiceException e) {
                problem(ctx, HttpStatus.forStatus(e.kind().status), e.kind().status == 404 ? "Not found" : "That did not work", describe(e));
            }
        };
    }

    /** Renders {@code template} inside the layout; {@code active} names the navigation entry of the page. */
    static void render(Context ctx, Viewer viewer, String active, String template, Map<String, Object> params) {
        Map<String, Object> p = new HashMap<>(params);
        p.put("viewer", viewer);
        p.put("active", active);
        Pages.render(ctx, "console/" + template, p);
    }

    static void problem(Context ctx, HttpStatus status, String title, String message) {
        ctx.status(status);
        Pages.render(ctx, "console/problem.jte", Map.of("title", title, "message", message));
    }

    /** A service's refusal in one sentence: its message, or its field violations. */
    static String describe(ServiceException e) {
        if (e.violations().isEmpty()) return e.getMessage();
        StringBuilder b = new StringBuilder();
        for (ServiceException.FieldViolation v : e.violations()) {
            if (!b.isEmpty()) b.append("; ");
            b.append(v.field()).append(' ').append(v.description());
        }
        return b.append('.').toString();
    }

    /** A form field as typed, "" when absent. */
    static String field(Context ctx, String name) {
        String v = ctx.formParam(name);
        return v == null ? "" : v;
    }

    /** A positive id from the path, or 404. */
    static long pathId(Context ctx, String name) {
        return positive(ctx.pathParam(name)).orElseThrow(ServiceException::notFound);
    }

    static java.util.Optional<Long> positive(String s) {
        if (s == null || !s.matches("\\d{1,18}")) return java.util.Optional.empty();
        long v = Long.parseLong(s);
        return v > 0 ? java.util.Optional.of(v) : java.util.Optional.empty();
    }

    /** The confirmation named by ?notice= after a form was posted (a fixed text: nothing from the URL is shown but the id). */
    static String notice(Context ctx) {
        String ref = positive(ctx.queryParam("ref")).map(String::valueOf).orElse("");
        String n = ctx.queryParam("notice");
        if (n == null) return null;
        return switch (n) {
            case "resent" -> "A fresh verification code was sent to callback " + ref + ". It stays unverified until the code comes back.";
            case "redelivered" -> "Delivery " + ref + " is queued again from its first attempt.";
            case "revoked" -> "Every token of that user and application was revoked.";
            case "fault-added" -> "Fault rule " + ref + " was added: the next matching requests get its answer.";
            case "faults-cleared" -> "Every fault rule was removed.";
            case "published" -> "Event " + ref + " was published. Its deliveries appear in the live tail below as they are attempted.";
            default -> null;
        };
    }
}
