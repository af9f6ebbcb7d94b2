package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.secrets.Hashes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Repeated failed logins are throttled per account (login.max-failures within login.throttle-window)
 * and per client address (four times as many, so one address cannot try many accounts). Counted in
 * the database, so every node sees the same counts. Keys are hashed: no e-mail address in this table.
 *
 * <p>Record first, then count, so that parallel tries cannot all pass a check made before any of
 * them failed: {@link #admit} commits a row per key for this try, then counts every row of the
 * window, its own and those of tries still in flight on any node included. The k-th try to commit
 * counts at least k rows, so at most login.max-failures tries of an account get their password
 * checked in a window, however many arrive at once. A refused try removes its rows again (a
 * throttled try is no failure and does not prolong the wait); an admitted one keeps them when the
 * password was wrong (they are the failure) and removes them when it was right, which also forgives
 * the account. Parallel tries may refuse each other a little early, never let one too many through.
 */
public final class LoginThrottle {
    static final int ADDRESS_FACTOR = 4;

    /** What the throttle says about a try. */
    public sealed interface Decision {}

    /** The password may be checked; the try's rows are held until {@link #failed} or {@link #succeeded}. */
    public record Admitted(List<Long> rows) implements Decision {}

    /** Refused: {@code limit} is "account" or "address", whichever was full; another try is allowed after {@code retryAfter}. */
    public record Throttled(String limit, Duration retryAfter) implements Decision {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final int maxFailures;
    private final Duration window;

    public LoginThrottle(Jdbi jdbi, Clock clock, int maxFailures, Duration window) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.maxFailures = maxFailures;
        this.window = window;
    }

    /** Records this try of {@code account} from {@code address}, then decides whether it may go on. */
    public Decision admit(String account, String address) {
        Instant now = now();
        String accountKey = accountKey(account);
        String addressKey = addressKey(address);
        // Committed before counting: a try counted by another node's admit must already be visible to it.
        List<Long> rows = jdbi.inTransaction(h -> {
            LoginSessionStore s = h.attach(LoginSessionStore.class);
            return List.of(s.recordTry(accountKey, now), s.recordTry(addressKey, now));
        });
        Optional<Throttled> full = full(accountKey, addressKey, now, 0);
        if (full.isEmpty()) return new Admitted(rows);
        jdbi.useExtension(LoginSessionStore.class, s -> s.deleteTries(rows));
        return full.get();
    }

    /** Whether a try would be refused now, recording nothing (a form sent without an e-mail or password). */
    public Optional<Throttled> check(String account, String address) {
        return full(accountKey(account), addressKey(address), now(), 1);
    }

    /** The admitted try's password was wrong: its rows stay as the failure; failures older than the window go. */
    public void failed(Admitted attempt) {
        Instant now = now();
        jdbi.useExtension(LoginSessionStore.class, s -> s.deleteFailuresBefore(now.minus(window)));
    }

    /** The admitted try's password could not be checked (the server was too busy): its rows go, nothing is counted. */
    public void abandoned(Admitted attempt) {
        jdbi.useExtension(LoginSessionStore.class, s -> s.deleteTries(attempt.rows()));
    }

    /** The admitted try's password was right: its rows go, and the account's failures are forgiven (the address keeps its count). */
    public void succeeded(Admitted attempt, String account) {
        jdbi.useTransaction(h -> {
            LoginSessionStore s = h.attach(LoginSessionStore.class);
            s.deleteTries(attempt.rows());
            s.clearFailures(accountKey(account));
        });
    }

    /**
     * The first key whose rows in the window, plus {@code pending} tries not recorded, exceed its limit,
     * and how long until its oldest row leaves the window.
     */
    private Optional<Throttled> full(String accountKey, String addressKey, Instant now, int pending) {
        Instant since = now.minus(window);
        return jdbi.withExtension(LoginSessionStore.class, s -> {
            for (String key : List.of(accountKey, addressKey)) {
                int limit = key.equals(accountKey) ? maxFailures : maxFailures * ADDRESS_FACTOR;
                if (s.failuresSince(key, since) + pending > limit) {
                    Instant oldest = s.oldestFailureSince(key, since).orElse(now);
                    Duration wait = Duration.between(now, oldest.plus(window));
                    return Optional.of(new Throttled(key.equals(accountKey) ? "account" : "address",
                            wait.isNegative() || wait.isZero() ? Duration.ofSeconds(1) : wait));
                }
            }
            return Optional.<Throttled>empty();
        });
    }

    /**
     * The name under which a user's second-factor codes are counted, as if it were one more account
     * (SecondFactor): its own key, so a right password does not forgive wrong codes. No e-mail
     * address has this shape (no @), so it names no account's key.
     */
    static String secondFactorAccount(long userId) {
        return "second-factor:" + userId;
    }

    private static String accountKey(String email) {
        return Hashes.sha256Hex("account:" + (email == null ? "" : email.trim().toLowerCase(Locale.ROOT)));
    }

    private static String addressKey(String address) {
        return Hashes.sha256Hex("address:" + (address == null ? "" : address));
    }

    private Instant now() {
        return DbTime.now(clock);
    }
}
