package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.Membership;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.LoginSession;
import dev.ledgerlink.oauth.LoginSessions;
import dev.ledgerlink.store.ServiceClock;
import dev.ledgerlink.web.Pages;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;

/**
 * The console's sign-in state: the authorization page's database sessions (oauth.LoginSessions)
 * under their own cookie, scoped to /console, and the same CSRF check on every form.
 */
final class ConsoleSession {
    static final String COOKIE = "ledgerlink_console";
    static final String PATH = "/console";

    /** The page needs a signed-in viewer: the browser is sent to the sign-in page. */
    static final class SignInRequired extends RuntimeException {
        SignInRequired() {
            super(null, null, false, false);
        }
    }

    /** A form without the session's CSRF token (another site, or an expired page). */
    static final class FormExpired extends RuntimeException {
        FormExpired() {
            super(null, null, false, false);
        }
    }

    private final LoginSessions sessions;
    private final UserService users;
    private final AccountService accounts;
    private final Settings settings;
    private final boolean devMode;
    private final ServiceClock clock;

    ConsoleSession(LoginSessions sessions, UserService users, AccountService accounts, Settings settings, boolean devMode, ServiceClock clock) {
        this.clock = clock;
        this.sessions = sessions;
        this.users = users;
        this.accounts = accounts;
        this.settings = settings;
        this.devMode = devMode;
    }

    /** The signed-in viewer, or empty. */
    Optional<Viewer> viewer(Context ctx) {
        Optional<LoginSession> session = sessions.find(ctx.cookie(COOKIE));
        if (session.isEmpty()) return Optional.empty();
        LoginSession s = session.get();
        if (s.operator()) return Optional.of(new Viewer(true, null, accounts.list(), s.csrfToken(), devMode, sandboxTime()));
        if (!s.isAuthenticated()) return Optional.empty();
        Optional<User> user = users.find(s.userId());
        if (user.isEmpty()) return Optional.empty();
        List<Account> own = accounts.membershipsOf(user.get().id()).stream().map(Membership::account).toList();
        return Optional.of(new Viewer(false, user.get(), own, s.csrfToken(), devMode, sandboxTime()));
    }

    /** The sandbox's time when its clock is off real time (development mode only), else null. */
    private Viewer.SandboxTime sandboxTime() {
        if (!devMode || clock.sandboxOffset().isZero()) return null;
        return new Viewer.SandboxTime(clock.instant(), clock.sandboxOffset());
    }

    Viewer require(Context ctx) {
        return viewer(ctx).orElseThrow(SignInRequired::new);
    }

    /** A form post: the viewer, once the form's CSRF token matches the session's (constant time). */
    Viewer requireForm(Context ctx) {
        Optional<LoginSession> session = sessions.find(ctx.cookie(COOKIE));
        if (session.isEmpty() || !LoginSessions.csrfMatches(session.get(), ctx.formParam("csrf_token"))) throw new FormExpired();
        return require(ctx);
    }

    /** The session of a visitor who is not signed in (it carries the sign-in form's CSRF token); opened when missing. */
    LoginSession anonymous(Context ctx) {
        return sessions.find(ctx.cookie(COOKIE)).orElseGet(() -> open(ctx, sessions.openAnonymous()));
    }

    /** The sign-in form's CSRF token matches this visitor's session. */
    boolean signInFormValid(Context ctx) {
        Optional<LoginSession> session = sessions.find(ctx.cookie(COOKIE));
        return session.isPresent() && LoginSessions.csrfMatches(session.get(), ctx.formParam("csrf_token"));
    }

    void signInUser(Context ctx, long userId) {
        open(ctx, sessions.logIn(ctx.cookie(COOKIE), userId));
    }

    /** A password was right and the user has a second factor: the session waits for the code (not signed in). */
    LoginSession awaitSecondFactor(Context ctx, long userId) {
        return open(ctx, sessions.awaitSecondFactor(ctx.cookie(COOKIE), userId));
    }

    /** The user whose second factor this visitor's session waits for, if it does. */
    Optional<User> awaitingSecondFactor(Context ctx) {
        return sessions.find(ctx.cookie(COOKIE)).filter(LoginSession::awaitsSecondFactor).flatMap(s -> users.find(s.secondFactorUserId()));
    }

    void signInOperator(Context ctx) {
        open(ctx, sessions.logInOperator(ctx.cookie(COOKIE)));
    }

    void signOut(Context ctx) {
        sessions.end(ctx.cookie(COOKIE));
        Pages.clearCookie(ctx, settings, COOKIE, PATH);
    }

    private LoginSession open(Context ctx, LoginSessions.Opened opened) {
        Pages.sessionCookie(ctx, settings, COOKIE, PATH, opened);
        return opened.session();
    }
}
