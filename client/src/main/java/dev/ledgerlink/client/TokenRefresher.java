package dev.ledgerlink.client;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps one grant's tokens fresh for many threads. Refresh tokens are single use and only the newest
 * is live, so two threads refreshing at once would leave one of them with a dead token (and a reuse
 * after 30 seconds revokes the whole grant): here one refresh runs at a time, and threads that waited
 * for it take its result instead of refreshing again. Each new pair is handed to {@code persistence}
 * before anything uses it, so a crash right after a refresh cannot lose the only live refresh token.
 *
 * <pre>{@code
 * var tokens = new TokenRefresher(client, loadTokens(), newPair -> saveTokens(newPair));
 * callbacks = client.callbacks(tokens.accessToken(), accountId);      // refreshed when it expires within a minute
 * // on a 401 invalid_token: tokens.refreshAfterRejection(theTokenThatWasRejected)
 * }</pre>
 *
 * One instance per grant (user and application), shared by every thread using that grant.
 */
public final class TokenRefresher {
    /** Stores a new pair durably (database, secret store) before it is used; what it throws reaches the caller. */
    @FunctionalInterface
    public interface Persistence {
        void save(Tokens newPair);
    }

    private final LedgerlinkClient client;
    private final Persistence persistence;
    private final Duration margin;
    private final Clock clock;
    private final ReentrantLock refreshing = new ReentrantLock();
    private volatile Tokens current;

    /** Refreshes when the access token expires within a minute. */
    public TokenRefresher(LedgerlinkClient client, Tokens current, Persistence persistence) {
        this(client, current, persistence, Duration.ofMinutes(1), Clock.systemUTC());
    }

    public TokenRefresher(LedgerlinkClient client, Tokens current, Persistence persistence, Duration margin, Clock clock) {
        this.client = Objects.requireNonNull(client);
        this.current = Objects.requireNonNull(current);
        this.persistence = Objects.requireNonNull(persistence);
        this.margin = margin;
        this.clock = clock;
    }

    /** The current pair (as last persisted). */
    public Tokens current() {
        return current;
    }

    /** An access token valid for at least the margin, refreshing first when needed. */
    public String accessToken() {
        Tokens seen = current;
        if (clock.instant().plus(margin).isBefore(seen.expiresAt())) return seen.accessToken();
        return refreshUnlessDone(seen).accessToken();
    }

    /**
     * The service refused {@code rejectedAccessToken} (401): refresh, unless another thread already
     * did since that token was current, in which case its pair is returned.
     */
    public Tokens refreshAfterRejection(String rejectedAccessToken) {
        Tokens seen = current;
        if (!seen.accessToken().equals(rejectedAccessToken)) return seen;
        return refreshUnlessDone(seen);
    }

    private Tokens refreshUnlessDone(Tokens seen) {
        refreshing.lock();
        try {
            if (current != seen) return current;          // refreshed by the thread we waited for
            Tokens next = client.refresh(seen.refreshToken());
            try {
                persistence.save(next);
            } finally {
                // The old refresh token is spent either way: keep the new pair in memory so this
                // process goes on working, even when saving it failed (that failure is thrown).
                current = next;
            }
            return next;
        } finally {
            refreshing.unlock();
        }
    }
}
