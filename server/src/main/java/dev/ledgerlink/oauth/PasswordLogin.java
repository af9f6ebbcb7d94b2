package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A sign-in form's check, shared by the authorization page and the console: throttled first
 * ({@link LoginThrottle}), then the e-mail and password (or, in the console, the operator key);
 * a failure counts against the account and the address, a success forgives the account.
 */
public final class PasswordLogin {
    /** The operator key's failures are counted under this name, as if it were one more account. */
    static final String OPERATOR_KEY_ACCOUNT = "(operator key)";

    /** The user signed in, or why not: {@code problem} in words for the form, {@code retryAfter} when throttled. */
    public record Result(Optional<User> user, boolean succeeded, String problem, Duration retryAfter) {
        static Result refused(String problem) {
            return new Result(Optional.empty(), false, problem, null);
        }
    }

    private final UserService users;
    private final LoginThrottle throttle;

    public PasswordLogin(UserService users, LoginThrottle throttle) {
        this.users = users;
        this.throttle = throttle;
    }

    public Result withPassword(String email, String password, String address) {
        Optional<Result> blocked = blocked(email, address);
        if (blocked.isPresent()) return blocked.get();
        if (email == null || email.isBlank() || password == null || password.isEmpty()) {
            return Result.refused("Enter your e-mail address and password.");
        }
        Optional<User> user = users.authenticate(email, password);
        if (user.isEmpty()) {
            throttle.recordFailure(email, address);
            return Result.refused("That e-mail address and password do not match an account.");
        }
        throttle.recordSuccess(email);
        return new Result(user, true, null, null);
    }

    /** The operator key, compared by {@code keyMatches} (constant time: events.OperatorKey), under the same throttle. */
    public Result withOperatorKey(String presented, Predicate<String> keyMatches, String address) {
        Optional<Result> blocked = blocked(OPERATOR_KEY_ACCOUNT, address);
        if (blocked.isPresent()) return blocked.get();
        if (presented == null || presented.isBlank()) return Result.refused("Enter the operator key.");
        if (!keyMatches.test(presented)) {
            throttle.recordFailure(OPERATOR_KEY_ACCOUNT, address);
            return Result.refused("That is not the operator key of this server.");
        }
        throttle.recordSuccess(OPERATOR_KEY_ACCOUNT);
        return new Result(Optional.empty(), true, null, null);
    }

    private Optional<Result> blocked(String account, String address) {
        return throttle.blockedFor(account, address).map(wait -> {
            long minutes = Math.max(1, (wait.toSeconds() + 59) / 60);
            return new Result(Optional.empty(), false,
                    "Too many failed sign-in attempts. Try again in " + minutes + (minutes == 1 ? " minute." : " minutes."), wait);
        });
    }
}
