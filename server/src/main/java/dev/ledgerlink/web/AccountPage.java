package dev.ledgerlink.web;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.ConnectedApps;
import dev.ledgerlink.oauth.LoginSession;
import dev.ledgerlink.oauth.LoginSessions;
import dev.ledgerlink.oauth.OAuthServer;
import dev.ledgerlink.oauth.PasswordLogin;
import dev.ledgerlink.oauth.SecondFactor;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The account page of the hosted sign-in, {auth_url}/oauth/account: the signed-in user's connected
 * applications (disconnect one) and their second factor (set up, new recovery codes, turn off). It
 * shares the authorization page's session (the same cookie): signed in on one, signed in on the
 * other. Its own sign-in is the same password check and throttle, then the second factor when the
 * user has one. Every form carries the session's CSRF token. Handlers stay thin: the rules are
 * oauth.ConnectedApps' and oauth.SecondFactor's.
 */
final class AccountPage {
    static final String PATH = "/oauth/account";
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** What a redirect back to the page says happened (fixed words: nothing from the request is shown). */
    private static final Map<String, String> NOTICES = Map.of(
            "disconnected", "The application was disconnected: its access ended, and it must ask you again to connect.",
            "second-factor-off", "Two-step sign-in is off: signing in asks for your password only.",
            "signed-out", "You signed out.");

    private final OAuthServer oauth;
    private final UserService users;
    private final Settings settings;
    private final ClientAddress clientAddress;

    AccountPage(OAuthServer oauth, UserService users, Settings settings, ClientAddress clientAddress) {
        this.oauth = oauth;
        this.users = users;
        this.settings = settings;
        this.clientAddress = clientAddress;
    }

    /** GET: the account when signed in; else the sign-in form, or the code form of a sign-in that waits for it. */
    void show(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        LoginSession session = oauth.sessions().find(ctx.cookie(AuthorizePage.COOKIE)).orElseGet(() -> open(ctx, oauth.sessions().openAnonymous()));
        Optional<User> user = signedIn(session);
        if (user.isPresent()) {
            String notice = ctx.queryParam("notice");
            account(ctx, session, user.get(), notice == null ? null : NOTICES.get(notice));
        } else if (session.awaitsSecondFactor() && users.find(session.secondFactorUserId()).isPresent()) {
            codeForm(ctx, session, users.find(session.secondFactorUserId()).get(), null);
        } else {
            signInForm(ctx, session, null, "");
        }
    }

    /** POST: the sign-in form (action=login) or the second factor's (action=second_factor). */
    void signIn(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<LoginSession> session = form(ctx);
        if (session.isEmpty()) return;
        String cookie = ctx.cookie(AuthorizePage.COOKIE);
        String address = clientAddress.of(ctx);
        if ("second_factor".equals(ctx.formParam("action"))) {
            LoginSession s = session.get();
            Optional<User> waiting = s.awaitsSecondFactor() ? users.find(s.secondFactorUserId()) : Optional.empty();
            if (waiting.isEmpty()) {
                signInForm(ctx, s, "Your sign-in took too long; sign in again.", "");
                return;
            }
            switch (oauth.secondFactor().verify(waiting.get().id(), ctx.formParam("code"), address)) {
                case SecondFactor.Accepted a -> signedIn(ctx, cookie, waiting.get().id());
                case SecondFactor.Refused r -> {
                    SignInRefusals.secondFactor(ctx, r.problem(), null, HttpStatus.UNAUTHORIZED);
                    codeForm(ctx, s, waiting.get(), r.problem());
                }
                case SecondFactor.Throttled t -> {
                    SignInRefusals.secondFactor(ctx, t.problem(), t.retryAfter(), HttpStatus.UNAUTHORIZED);
                    codeForm(ctx, s, waiting.get(), t.problem());
                }
            }
            return;
        }
        PasswordLogin.Result result = oauth.login().withPassword(ctx.formParam("email"), ctx.formParam("password"), address);
        if (!result.succeeded()) {
            SignInRefusals.status(ctx, result.refusal(), result.retryAfter(), HttpStatus.UNAUTHORIZED);
            if (result.problem() != null) ErrorNote.note(ctx, null, result.problem());
            signInForm(ctx, session.get(), result.problem(), ctx.formParam("email"));
            return;
        }
        User user = result.user().orElseThrow();
        if (oauth.secondFactor().enrolled(user.id())) {
            codeForm(ctx, open(ctx, oauth.sessions().awaitSecondFactor(cookie, user.id())), user, null);
        } else {
            signedIn(ctx, cookie, user.id());
        }
    }

    void signOut(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        if (form(ctx).isEmpty()) return;
        oauth.sessions().end(ctx.cookie(AuthorizePage.COOKIE));
        Pages.clearCookie(ctx, settings, AuthorizePage.COOKIE, "/oauth");
        ctx.redirect(PATH + "?notice=signed-out", HttpStatus.SEE_OTHER);
    }

    void disconnect(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<Signed> s = signedInForm(ctx);
        if (s.isEmpty()) return;
        oauth.connectedApps().disconnect(s.get().user().id(), ctx.pathParam("client_id"), ConnectedApps.By.USER, clientAddress.of(ctx));
        ctx.redirect(PATH + "?notice=disconnected", HttpStatus.SEE_OTHER);
    }

    /** Starts (or restarts) an enrolment: a new secret, shown with its QR code and a form for its first code. */
    void setUpSecondFactor(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<Signed> s = signedInForm(ctx);
        if (s.isEmpty()) return;
        Optional<SecondFactor.Enrolment> enrolment = oauth.secondFactor().begin(s.get().user());
        if (enrolment.isEmpty()) {
            account(ctx, s.get().session(), s.get().user(), "Two-step sign-in is already on.");
            return;
        }
        setUpForm(ctx, s.get(), enrolment.get(), null);
    }

    void confirmSecondFactor(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<Signed> s = signedInForm(ctx);
        if (s.isEmpty()) return;
        User user = s.get().user();
        SecondFactor.Confirmation c = oauth.secondFactor().confirm(user.id(), ctx.formParam("code"), clientAddress.of(ctx));
        if (c.check() instanceof SecondFactor.Accepted) {
            recoveryCodes(ctx, s.get(), c.recoveryCodes(), "Two-step sign-in is on");
            return;
        }
        String problem = problem(c.check());
        SignInRefusals.secondFactor(ctx, problem, retryAfter(c.check()), HttpStatus.UNPROCESSABLE_CONTENT);
        Optional<SecondFactor.Enrolment> pending = oauth.secondFactor().pending(user);
        if (pending.isEmpty()) {
            account(ctx, s.get().session(), user, problem);
        } else {
            setUpForm(ctx, s.get(), pending.get(), problem);
        }
    }

    void replaceRecoveryCodes(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<Signed> s = signedInForm(ctx);
        if (s.isEmpty()) return;
        SecondFactor.Confirmation c = oauth.secondFactor().replaceRecoveryCodes(s.get().user().id(), ctx.formParam("code"), clientAddress.of(ctx));
        if (c.check() instanceof SecondFactor.Accepted && !c.recoveryCodes().isEmpty()) {
            recoveryCodes(ctx, s.get(), c.recoveryCodes(), "New recovery codes");
            return;
        }
        refusedChange(ctx, s.get(), c.check());
    }

    void removeSecondFactor(Context ctx) {
        AuthorizePage.pageHeaders(ctx);
        Optional<Signed> s = signedInForm(ctx);
        if (s.isEmpty()) return;
        SecondFactor.Check check = oauth.secondFactor().remove(s.get().user().id(), ctx.formParam("code"), clientAddress.of(ctx));
        if (check instanceof SecondFactor.Accepted) {
            ctx.redirect(PATH + "?notice=second-factor-off", HttpStatus.SEE_OTHER);
            return;
        }
        refusedChange(ctx, s.get(), check);
    }

    private void refusedChange(Context ctx, Signed s, SecondFactor.Check check) {
        String problem = problem(check);
        SignInRefusals.secondFactor(ctx, problem, retryAfter(check), HttpStatus.UNPROCESSABLE_CONTENT);
        account(ctx, s.session(), s.user(), problem);
    }

    private static String problem(SecondFactor.Check check) {
        return switch (check) {
            case SecondFactor.Refused r -> r.problem();
            case SecondFactor.Throttled t -> t.problem();
            case SecondFactor.Accepted a -> null;
        };
    }

    private static java.time.Duration retryAfter(SecondFactor.Check check) {
        return check instanceof SecondFactor.Throttled t ? t.retryAfter() : null;
    }

    /** The signed-in user of a form post whose CSRF token matches; otherwise the answer is already rendered (403, or the sign-in form). */
    private Optional<Signed> signedInForm(Context ctx) {
        Optional<LoginSession> session = form(ctx);
        if (session.isEmpty()) return Optional.empty();
        Optional<User> user = signedIn(session.get());
        if (user.isEmpty()) {
            ctx.status(HttpStatus.UNAUTHORIZED);
            signInForm(ctx, session.get(), "Sign in first.", "");
            return Optional.empty();
        }
        return Optional.of(new Signed(session.get(), user.get()));
    }

    private record Signed(LoginSession session, User user) {}

    /** The session of a form post whose CSRF token matches it; otherwise a 403 page, and empty. */
    private Optional<LoginSession> form(Context ctx) {
        Optional<LoginSession> session = oauth.sessions().find(ctx.cookie(AuthorizePage.COOKIE));
        if (session.isEmpty() || !LoginSessions.csrfMatches(session.get(), ctx.formParam("csrf_token"))) {
            AuthorizePage.errorPage(ctx, HttpStatus.FORBIDDEN, "This form has expired",
                    "The form was not sent from this page, or it is too old. Open your account page again.");
            return Optional.empty();
        }
        return session;
    }

    private Optional<User> signedIn(LoginSession session) {
        return session.isAuthenticated() ? users.find(session.userId()) : Optional.empty();
    }

    private void signedIn(Context ctx, String cookie, long userId) {
        open(ctx, oauth.sessions().logIn(cookie, userId));
        ctx.redirect(PATH, HttpStatus.SEE_OTHER);
    }

    private LoginSession open(Context ctx, LoginSessions.Opened opened) {
        Pages.sessionCookie(ctx, settings, AuthorizePage.COOKIE, "/oauth", opened);
        return opened.session();
    }

    private void signInForm(Context ctx, LoginSession session, String problem, String email) {
        Pages.render(ctx, "login.jte", params("action", PATH, "csrf", session.csrfToken(), "heading", "Sign in to your ledgerlink account",
                "intro", "See the applications you connected, and how you sign in.", "problem", problem, "email", email == null ? "" : email));
    }

    private void codeForm(Context ctx, LoginSession session, User user, String problem) {
        Pages.render(ctx, "second-factor.jte", params("action", PATH, "csrf", session.csrfToken(), "userEmail", user.email(), "problem", problem));
    }

    private void account(Context ctx, LoginSession session, User user, String notice) {
        List<ConnectedAppLine> apps = oauth.connectedApps().of(user.id()).stream().map(AccountPage::line).toList();
        boolean enrolled = oauth.secondFactor().enrolled(user.id());
        Pages.render(ctx, "account.jte", params("csrf", session.csrfToken(), "userEmail", user.email(), "notice", notice, "apps", apps,
                "secondFactor", enrolled, "recoveryCodesLeft", enrolled ? oauth.secondFactor().recoveryCodesLeft(user.id()) : 0));
    }

    private void setUpForm(Context ctx, Signed s, SecondFactor.Enrolment e, String problem) {
        Pages.render(ctx, "second-factor-setup.jte", params("csrf", s.session().csrfToken(), "problem", problem,
                "qr", QrCode.svg(e.keyUri(), "QR code of your ledgerlink key, for your authenticator app"),
                "secret", e.secret().replaceAll("(.{4})(?!$)", "$1 ")));
    }

    private void recoveryCodes(Context ctx, Signed s, List<String> codes, String title) {
        Pages.render(ctx, "recovery-codes.jte", params("title", title, "codes", codes));
    }

    private static ConnectedAppLine line(ConnectedApps.ConnectedApp c) {
        return new ConnectedAppLine(c.application().clientId(), c.application().name(), c.scopes().stream().map(Scopes::describe).toList(),
                when(c.connectedAt()), c.lastUsedAt() == null ? null : when(c.lastUsedAt()));
    }

    private static String when(Instant at) {
        return WHEN.format(at);
    }

    private static Map<String, Object> params(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }
}
