package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Server-side sessions of the authorization page, shared by every node through the database. The
 * cookie holds 256 random bits; only their SHA-256 is stored. Logging in replaces the session with a
 * new one (new id, new CSRF token), so an id planted before login is worth nothing after it.
 */
public final class LoginSessions {
    public static final Duration LIFETIME = Duration.ofHours(12);
    /** How long a sign-in whose password was right waits for its second factor. */
    public static final Duration SECOND_FACTOR_WAIT = Duration.ofMinutes(10);

    /** A session and the cookie value that names it (only known when it was just created). */
    public record Opened(LoginSession session, String cookieValue) {}

    private final Jdbi jdbi;
    private final Clock clock;

    public LoginSessions(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    public Optional<LoginSession> find(String cookieValue) {
        if (cookieValue == null || cookieValue.isEmpty() || cookieValue.length() > 128) return Optional.empty();
        return jdbi.withExtension(LoginSessionStore.class, s -> s.find(Hashes.sha256Hex(cookieValue), now()));
    }

    /** A session for a visitor who has none yet: it carries the CSRF token of the login form. */
    public Opened openAnonymous() {
        return open(null, false, null);
    }

    /** Ends {@code previousCookieValue}'s session (if any) and opens an authenticated one for the user. */
    public Opened logIn(String previousCookieValue, long userId) {
        end(previousCookieValue);
        return open(userId, false, null);
    }

    /**
     * Ends {@code previousCookieValue}'s session (if any) and opens one that waits for the user's second
     * factor (their password was right): not signed in, for {@link #SECOND_FACTOR_WAIT} at most.
     */
    public Opened awaitSecondFactor(String previousCookieValue, long userId) {
        end(previousCookieValue);
        return open(null, false, userId);
    }

    /** Ends {@code previousCookieValue}'s session (if any) and opens an operator session (the console, signed in with the operator key). */
    public Opened logInOperator(String previousCookieValue) {
        end(previousCookieValue);
        return open(null, true, null);
    }

    /** Signs out: the session is deleted, its cookie worth nothing from now on. */
    public void end(String cookieValue) {
        if (cookieValue != null && !cookieValue.isEmpty() && cookieValue.length() <= 128) {
            jdbi.useExtension(LoginSessionStore.class, s -> s.delete(Hashes.sha256Hex(cookieValue)));
        }
    }

    private Opened open(Long userId, boolean operator, Long secondFactorUserId) {
        String cookie = RandomTokens.urlSafe(32);
        String csrf = RandomTokens.urlSafe(32);
        Instant now = now();
        Instant expires = now.plus(secondFactorUserId == null ? LIFETIME : SECOND_FACTOR_WAIT);
        Instant authenticatedAt = userId == null && !operator ? null : now;
        jdbi.useExtension(LoginSessionStore.class, s -> {
            s.deleteExpired(now);
            s.insert(Hashes.sha256Hex(cookie), userId, csrf, now, authenticatedAt, expires, operator, secondFactorUserId);
        });
        return new Opened(new LoginSession(0, userId, csrf, authenticatedAt, expires, operator, secondFactorUserId), cookie);
    }

    /** The form's CSRF token against the session's, in constant time. */
    public static boolean csrfMatches(LoginSession session, String formToken) {
        return session != null && Hashes.constantTimeEquals(session.csrfToken(), formToken);
    }

    private Instant now() {
        return DbTime.now(clock);
    }
}
