package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import java.time.Duration;
import java.util.Optional;

/**
 * What the authorization page does next, step by step: sign in, ask for consent (unless already
 * granted and prompt=consent is absent), then send the browser back with a code, or with
 * error=access_denied when the user declines. The web layer only renders the step it is given.
 * The request has already passed {@link AuthorizationRequests}; CSRF is checked by the caller.
 */
public final class AuthorizationFlow {

    /** The next thing the browser sees. */
    public sealed interface Step {}
    /** The login form; {@code problem} explains a refused try, {@code refusal} why; {@code retryAfter} is set when throttled or busy. */
    public record ShowLogin(String problem, PasswordLogin.Refusal refusal, Duration retryAfter) implements Step {}
    /** The consent page for this user. */
    public record ShowConsent(User user) implements Step {}
    /** Back to the client. */
    public record Redirect(String location) implements Step {}

    private final UserService users;
    private final PasswordLogin login;
    private final Consents consents;
    private final AuthorizationCodes codes;

    public AuthorizationFlow(UserService users, PasswordLogin login, Consents consents, AuthorizationCodes codes) {
        this.users = users;
        this.login = login;
        this.consents = consents;
        this.codes = codes;
    }

    /** A GET of the page: who is signed in decides. */
    public Step begin(AuthorizationRequest request, LoginSession session) {
        Optional<User> user = signedIn(session);
        if (user.isEmpty() || request.promptLogin()) {
            if (request.promptNone()) throw AuthorizationError.redirect(request.redirectUri(), request.state(), "login_required", "the user is not signed in");
            return new ShowLogin(null, null, null);
        }
        return afterLogin(request, user.get());
    }

    /** The login form was posted. Returns the user with the next step, or the form again. */
    public record LoginResult(Optional<User> user, Step next) {}

    public LoginResult logIn(AuthorizationRequest request, String email, String password, String address) {
        PasswordLogin.Result result = login.withPassword(email, password, address);
        if (result.user().isEmpty()) return new LoginResult(Optional.empty(), new ShowLogin(result.problem(), result.refusal(), result.retryAfter()));
        return new LoginResult(result.user(), afterLogin(request, result.user().get()));
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
