package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.secrets.Hashes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Repeated failed logins are throttled per account (login.max-failures within login.throttle-window)
 * and per client address (four times as many, so one address cannot try many accounts). Counted in
 * the database, so every node sees the same counts. Keys are hashed: no e-mail address in this table.
 */
public final class LoginThrottle {
    static final int ADDRESS_FACTOR = 4;

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

    /** How long until another try is allowed, when this account or address has failed too often. */
    public Optional<Duration> blockedFor(String email, String address) {
        Instant now = now();
        Instant since = now.minus(window);
        return jdbi.withExtension(LoginSessionStore.class, s -> {
            for (String key : new String[] {accountKey(email), addressKey(address)}) {
                int limit = key.equals(accountKey(email)) ? maxFailures : maxFailures * ADDRESS_FACTOR;
                if (s.failuresSince(key, since) >= limit) {
                    Instant oldest = s.oldestFailureSince(key, since).orElse(now);
                    Duration wait = Duration.between(now, oldest.plus(window));
                    return Optional.of(wait.isNegative() || wait.isZero() ? Duration.ofSeconds(1) : wait);
                }
            }
            return Optional.<Duration>empty();
        });
    }

    public void recordFailure(String email, String address) {
        Instant now = now();
        jdbi.useTransaction(h -> {
            LoginSessionStore s = h.attach(LoginSessionStore.class);
            s.deleteFailuresBefore(now.minus(window));
            s.recordFailure(accountKey(email), now);
            s.recordFailure(addressKey(address), now);
        });
    }

    /** A successful login forgives the account's failures (the address keeps its count). */
    public void recordSuccess(String email) {
        jdbi.useExtension(LoginSessionStore.class, s -> s.clearFailures(accountKey(email)));
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
