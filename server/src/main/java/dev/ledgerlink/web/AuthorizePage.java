package dev.ledgerlink.web;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.AuthorizationError;
import dev.ledgerlink.oauth.AuthorizationFlow;
import dev.ledgerlink.oauth.AuthorizationRequest;
import dev.ledgerlink.oauth.LoginSession;
import dev.ledgerlink.oauth.LoginSessions;
import dev.ledgerlink.oauth.OAuthServer;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The authorization page at {auth_url}/oauth/authorize: GET shows the next step, POST takes the
 * login form or the consent answer. The request itself travels in the query string of every form
 * (and is checked again on each POST); the session lives in the database, named by a cookie.
 */
final class AuthorizePage {
    static final String COOKIE = "ledgerlink_session";
    private static final String CSP = "frame-ancestors 'none'; default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'";

    private final OAuthServer oauth;
    private final Settings settings;
    private final ClientAddress clientAddress;

    AuthorizePage(OAuthServer oauth, Settings settings, ClientAddress clientAddress) {
        this.oauth = oauth;
        this.settings = settings;
        this.clientAddress = clientAddress;
    }

    void show(Context ctx) {
        pageHeaders(ctx);
        try {
            AuthorizationRequest request = oauth.requests().validate(ctx.queryParamMap());
            LoginSession session = oauth.sessions().find(ctx.cookie(COOKIE)).orElseGet(() -> open(ctx, oauth.sessions().openAnonymous()));
            render(ctx, request, session, oauth.flow().begin(request, session), HttpStatus.FOUND);
        } catch (AuthorizationError e) {
            refuse(ctx, e, HttpStatus.FOUND);
        }
    }

    void submit(Context ctx) {
        pageHeaders(ctx);
        try {
            AuthorizationRequest request = oauth.requests().validate(ctx.queryParamMap());
            String cookie = ctx.cookie(COOKIE);
            Optional<LoginSession> session = oauth.sessions().find(cookie);
            if (session.isEmpty() || !LoginSessions.csrfMatches(session.get(), ctx.formParam("csrf_token"))) {
                errorPage(ctx, HttpStatus.FORBIDDEN, "This form has expired",
                        "The form was not sent from this page, or it is too old. Go back to the application and start again.");
                return;
            }
            String action = ctx.formParam("action");
            if ("login".equals(action) || "second_factor".equals(action)) {
                var result = "login".equals(action)
                        ? oauth.flow().logIn(request, ctx.formParam("email"), ctx.formParam("password"), clientAddress.of(ctx))
                        : oauth.flow().secondFactor(request, session.get(), ctx.formParam("code"), clientAddress.of(ctx));
                LoginSession current = session.get();
                if (result.user().isPresent()) {
                    long userId = result.user().get().id();
                    current = open(ctx, result.next() instanceof AuthorizationFlow.ShowSecondFactor
                            ? oauth.sessions().awaitSecondFactor(cookie, userId) : oauth.sessions().logIn(cookie, userId));
                }
                render(ctx, request, current, result.next(), HttpStatus.SEE_OTHER);
            } else if ("authorize".equals(action) || "deny".equals(action)) {
                render(ctx, request, session.get(), oauth.flow().decide(request, session.get(), "authorize".equals(action)), HttpStatus.SEE_OTHER);
            } else {
                errorPage(ctx, HttpStatus.BAD_REQUEST, "Something went wrong", "The form did not say what to do. Go back and try again.");
            }
        } catch (AuthorizationError e) {
            refuse(ctx, e, HttpStatus.SEE_OTHER);
        }
    }

    private void render(Context ctx, AuthorizationRequest request, LoginSession session, AuthorizationFlow.Step step, HttpStatus redirectStatus) {
        String action = ctx.path() + (ctx.queryString() == null ? "" : "?" + ctx.queryString());
        switch (step) {
            case AuthorizationFlow.Redirect r -> ctx.redirect(r.location(), redirectStatus);
            case AuthorizationFlow.ShowLogin login -> {
                if (login.refusal() != null) SignInRefusals.status(ctx, login.refusal(), login.retryAfter(), HttpStatus.OK);
                if (login.problem() != null) ErrorNote.note(ctx, null, login.problem());   // the journal's "why" of a failed sign-in
                String email = ctx.formParam("email");
                String app = request.application().name();
                page(ctx, "login.jte", Map.of("action", action, "csrf", session.csrfToken(), "heading", "Sign in to continue to " + app,
                        "intro", app + " is asking to connect to your ledgerlink account.",
                        "problem", Optional.ofNullable(login.problem()), "email", email == null ? "" : email));
            }
            case AuthorizationFlow.ShowSecondFactor code -> {
                SignInRefusals.secondFactor(ctx, code.problem(), code.retryAfter(), HttpStatus.OK);
                page(ctx, "second-factor.jte", Map.of("action", action, "csrf", session.csrfToken(), "userEmail", code.user().email(),
                        "problem", Optional.ofNullable(code.problem())));
            }
            case AuthorizationFlow.ShowConsent consent -> {
                List<ConsentScope> scopes = request.scopes().stream().map(s -> new ConsentScope(s, Scopes.describe(s))).toList();
                page(ctx, "consent.jte", Map.of("action", action, "csrf", session.csrfToken(), "appName", request.application().name(),
                        "userEmail", consent.user().email(), "redirectHost", hostOf(request.redirectUri()), "scopes", scopes));
            }
        }
    }

    private void refuse(Context ctx, AuthorizationError e, HttpStatus redirectStatus) {
        if (e.redirects()) {
            ctx.redirect(e.location(), redirectStatus);
        } else {
            errorPage(ctx, HttpStatus.BAD_REQUEST, "This sign-in link is not valid", e.description());
        }
    }

    static void errorPage(Context ctx, HttpStatus status, String title, String message) {
        ctx.status(status);
        ErrorNote.note(ctx, null, title + ": " + message);
        page(ctx, "error.jte", Map.of("title", title, "message", message));
    }

    /** The page's error answer with a status of its own (development mode's fault rules: 503 or 429). */
    static void unavailablePage(Context ctx, int status, String title, String message) {
        pageHeaders(ctx);
        errorPage(ctx, HttpStatus.forStatus(status), title, message);
    }

    private static void page(Context ctx, String template, Map<String, Object> params) {
        Pages.render(ctx, template, params);
    }

    private LoginSession open(Context ctx, LoginSessions.Opened opened) {
        Pages.sessionCookie(ctx, settings, COOKIE, "/oauth", opened);
        return opened.session();
    }

    static void pageHeaders(Context ctx) {
        Pages.headers(ctx, CSP);
    }

    private static String hostOf(String uri) {
        try {
            URI u = URI.create(uri);
            return u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
        } catch (IllegalArgumentException e) {
            return uri;
        }
    }

}
