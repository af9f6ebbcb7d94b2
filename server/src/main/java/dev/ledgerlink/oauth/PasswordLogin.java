package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.secrets.PasswordHasher;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A sign-in form's check, shared by the authorization page and the console: throttled first
 * ({@link LoginThrottle}: the try is recorded first, so parallel tries cannot slip past the
 * limit), then the e-mail and password (or, in the console, the operator key); a failure counts
 * against the account and the address, a success forgives the account. A throttled try is an
 * audit event. A try whose password the server was too busy to check counts as nothing.
 */
public final class PasswordLogin {
    /** The operator key's failures are counted under this name, as if it were one more account. */
    static final String OPERATOR_KEY_ACCOUNT = "(operator key)";

    /**
     * Why a sign-in was refused: the input was missing or wrong; too many failures (the throttle); or
     * the server could not check the password in time (too many checks at once, {@link PasswordHasher.Busy}).
     */
    public enum Refusal { INVALID, THROTTLED, BUSY }

    /** The user signed in, or why not: {@code problem} in words for the form, {@code retryAfter} when throttled or busy. */
    public record Result(Optional<User> user, Refusal refusal, String problem, Duration retryAfter) {
        static Result signedIn(Optional<User> user) {
            return new Result(user, null, null, null);
        }

        static Result refused(String problem) {
            return new Result(Optional.empty(), Refusal.INVALID, problem, null);
        }

        public boolean succeeded() {
            return refusal == null;
        }
    }

    private final UserService users;
    private final LoginThrottle throttle;
    private final AuditLog audit;

    public PasswordLogin(UserService users, LoginThrottle throttle, AuditLog audit) {
        this.users = users;
        this.throttle = throttle;
        this.audit = audit;
    }

    public Result withPassword(String email, String password, String address) {
        boolean empty = email == null || email.isBlank() || password == null || password.isEmpty();
        return attempt(email, address, empty, "Enter your e-mail address and password.",
                () -> users.authenticate(email, password).map(u -> Result.signedIn(Optional.of(u))), "That e-mail address and password do not match an account.");
    }

    /** The operator key, compared by {@code keyMatches} (constant time: events.OperatorKey), under the same throttle. */
    public Result withOperatorKey(String presented, Predicate<String> keyMatches, String address) {
        boolean empty = presented == null || presented.isBlank();
        return attempt(OPERATOR_KEY_ACCOUNT, address, empty, "Enter the operator key.",
                () -> keyMatches.test(presented) ? Optional.of(Result.signedIn(Optional.empty())) : Optional.empty(), "That is not the operator key of this server.");
    }

    /**
     * One sign-in try under the throttle: an empty form only reports an existing lock-out; otherwise
     * the try is admitted (or refused as throttled) before the check runs, and its result counted.
     */
    private Result attempt(String account, String address, boolean empty, String askForInput,
                           Supplier<Optional<Result>> check, String mismatch) {
        if (empty) {
            return throttle.check(account, address).map(t -> throttled(t, account, address))
                    .orElseGet(() -> Result.refused(askForInput));
        }
        LoginThrottle.Decision decision = throttle.admit(account, address);
        if (!(decision instanceof LoginThrottle.Admitted admitted)) return throttled((LoginThrottle.Throttled) decision, account, address);
        Optional<Result> signedIn;
        try {
            signedIn = check.get();
        } catch (PasswordHasher.Busy busy) {
            throttle.abandoned(admitted);   // nothing was checked: no failure to count
            return new Result(Optional.empty(), Refusal.BUSY,
                    "Too many people are signing in right now. Try again in a few seconds.", busy.retryAfter());
        }
        if (signedIn.isEmpty()) {
            throttle.failed(admitted);
            return Result.refused(mismatch);
        }
        throttle.succeeded(admitted, account);
        return signedIn.get();
    }

    /**
     * The form's answer to a throttled try, and its audit line: whose sign-in (the user's id when the
     * address names one: never the typed text, which may be a password in the wrong field) and which limit.
     */
    private Result throttled(LoginThrottle.Throttled t, String account, String address) {
        boolean operator = OPERATOR_KEY_ACCOUNT.equals(account);
        Long userId = operator || account == null || account.isBlank() ? null : users.findByEmail(account).map(User::id).orElse(null);
        audit.record(AuditLog.Event.LOGIN_THROTTLED, "subject", operator ? "operator_key" : "user", "user_id", userId,
                "limit", t.limit(), "address", address, "retry_after_seconds", t.retryAfter().toSeconds());
        long minutes = Math.max(1, (t.retryAfter().toSeconds() + 59) / 60);
        return new Result(Optional.empty(), Refusal.THROTTLED,
                "Too many failed sign-in attempts. Try again in " + minutes + (minutes == 1 ? " minute." : " minutes."), t.retryAfter());
    }
}
