package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import java.time.Duration;
import java.util.Optional;

/**
 * What the authorization page does next, step by step: sign in (the password, then the second
 * factor of a user who enrolled one, {@link SecondFactor}), ask for consent (unless already
 * granted and prompt=consent is absent), then send the browser back with a code, or with
 * error=access_denied when the user declines. The web layer only renders the step it is given.
 * The request has already passed {@link AuthorizationRequests}; CSRF is checked by the caller.
 */
public final class AuthorizationFlow {

    /** The next thing the browser sees. */
    public sealed interface Step {}
    /** The login form; {@code problem} explains a refused try, {@code refusal} why; {@code retryAfter} is set when throttled or busy. */
    public record ShowLogin(String problem, PasswordLogin.Refusal refusal, Duration retryAfter) implements Step {}
    /** The password was right; the user's authenticator code (or a recovery code) is asked for. {@code problem} explains a refused one. */
    public record ShowSecondFactor(User user, String problem, Duration retryAfter) implements Step {}
    /** The consent page for this user. */
    public record ShowConsent(User user) implements Step {}
    /** Back to the client. */
    public record Redirect(String location) implements Step {}

    private final UserService users;
    private final PasswordLogin login;
    private final SecondFactor secondFactor;
    private final Consents consents;
    private final AuthorizationCodes codes;

    public AuthorizationFlow(UserService users, PasswordLogin login, SecondFactor secondFactor, Consents consents, AuthorizationCodes codes) {
        this.users = users;
        this.login = login;
        this.secondFactor = secondFactor;
        this.consents = consents;
        this.codes = codes;
    }

    /** A GET of the page: who is signed in decides. */
    public Step begin(AuthorizationRequest request, LoginSession session) {
        Optional<User> user = signedIn(session);
        if (user.isEmpty() && !request.promptLogin() && !request.promptNone() && session != null && session.awaitsSecondFactor()) {
            Optional<User> waiting = users.find(session.secondFactorUserId());
            if (waiting.isPresent()) return new ShowSecondFactor(waiting.get(), null, null);
        }
        if (user.isEmpty() || request.promptLogin()) {
            if (request.promptNone()) throw AuthorizationError.redirect(request.redirectUri(), request.state(), "login_required", "the user is not signed in");
            return new ShowLogin(null, null, null);
        }
        return afterLogin(request, user.get());
    }

    /**
     * The login form was posted. Returns the user with the next step, or the form again. The user is
     * signed in by the caller only when the next step is not {@link ShowSecondFactor}: then the session
     * waits for the code ({@link #secondFactor}).
     */
    public record LoginResult(Optional<User> user, Step next) {}

    public LoginResult logIn(AuthorizationRequest request, String email, String password, String address) {
        PasswordLogin.Result result = login.withPassword(email, password, address);
        if (result.user().isEmpty()) return new LoginResult(Optional.empty(), new ShowLogin(result.problem(), result.refusal(), result.retryAfter()));
        User user = result.user().get();
        if (secondFactor.enrolled(user.id())) return new LoginResult(result.user(), new ShowSecondFactor(user, null, null));
        return new LoginResult(result.user(), afterLogin(request, user));
    }

    /** The second factor's form was posted by a session that waits for it: signed in (the user returned) when the code is right. */
    public LoginResult secondFactor(AuthorizationRequest request, LoginSession session, String code, String address) {
        if (session == null || !session.awaitsSecondFactor()) return new LoginResult(Optional.empty(), new ShowLogin("Your session ended; sign in again.", null, null));
        Optional<User> user = users.find(session.secondFactorUserId());
        if (user.isEmpty()) return new LoginResult(Optional.empty(), new ShowLogin("Your session ended; sign in again.", null, null));
        return switch (secondFactor.verify(user.get().id(), code, address)) {
            case SecondFactor.Accepted a -> new LoginResult(user, afterLogin(request, user.get()));
            case SecondFactor.Refused r -> new LoginResult(Optional.empty(), new ShowSecondFactor(user.get(), r.problem(), null));
            case SecondFactor.Throttled t -> new LoginResult(Optional.empty(), new ShowSecondFactor(user.get(), t.problem(), t.retryAfter()));
        };
    }

    /** The consent page was answered. */
    public Step decide(AuthorizationRequest request, LoginSession session, boolean approved) {
        Optional<User> user = signedIn(session);
        if (user.isEmpty()) return new ShowLogin("Your session ended; sign in again.", null, null);
        if (!approved) {
            return new Redirect(AuthorizationError.redirect(request.redirectUri(), request.state(), "access_denied",
                    "the user declined the authorization request").location());
        }
        consents.grant(user.get().id(), request.application().id(), request.scopes());
        return codeRedirect(request, user.get());
    }

    private Step afterLogin(AuthorizationRequest request, User user) {
        boolean granted = consents.covers(user.id(), request.application().id(), request.scopes());
        if (granted && !request.promptConsent()) return codeRedirect(request, user);
        if (request.promptNone()) throw AuthorizationError.redirect(request.redirectUri(), request.state(), "consent_required", "the user has not granted these scopes");
        return new ShowConsent(user);
    }

    private Step codeRedirect(AuthorizationRequest request, User user) {
        String code = codes.issue(user.id(), request);
        StringBuilder url = new StringBuilder(request.redirectUri()).append(request.redirectUri().contains("?") ? '&' : '?')
                .append("code=").append(AuthorizationError.encode(code));
        if (request.state() != null) url.append("&state=").append(AuthorizationError.encode(request.state()));
        return new Redirect(url.toString());
    }

    private Optional<User> signedIn(LoginSession session) {
        if (session == null || !session.isAuthenticated()) return Optional.empty();
        return users.find(session.userId());
    }
}
