package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;
import static dev.ledgerlink.oauth.RefreshTokenGrant.Guard.ISSUED_TO_CLIENT;
import static dev.ledgerlink.oauth.RefreshTokenGrant.Guard.NOT_REVOKED;
import static dev.ledgerlink.oauth.RefreshTokenGrant.Guard.NOT_SUPERSEDED;
import static dev.ledgerlink.oauth.RefreshTokenGrant.Guard.NOT_USED;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.notifications.OperatorNotices;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;

/**
 * grant_type=refresh_token (RFC 6749 §6) for a client already authenticated: the rule of refresh
 * rotation, whole, read top to bottom.
 *
 * <ol>
 *   <li>The guards ({@link Guard}): a refresh token is used only if it was issued to this client, is
 *   not revoked, was never used (single use) and is the live one of its user and application (a
 *   newer authorization supersedes it). They never expire.</li>
 *   <li>Single use: the token is used, and its successor pair minted in its grant, by one statement
 *   that holds the guards as its condition ({@link TokenService#rotate}): of any number of requests
 *   racing with one token exactly one gets a pair, and a refusal writes nothing.</li>
 *   <li>A token not used is read back with each guard's verdict, and the first guard that failed, in
 *   the order below, names the refusal in error_description (decisions.md, "Token endpoint").</li>
 *   <li>Replay (RFC 9700 §4.14.2): a used token presented again within the replay window is a
 *   client's own retry race, and only refused; later, it is taken as stolen and its family revoked:
 *   the grant's live refresh token and its access tokens, the operator told once.</li>
 * </ol>
 *
 * Each guard is written once, as SQL on the token {@code r} and its grant {@code g}: the condition
 * the using statement holds, and the verdicts the refusal is read from, cannot drift apart. How
 * each database runs that statement fastest (a group of grants in one statement on PostgreSQL, a
 * transaction sharing its commit on H2) is store/GroupedWrites', behind TokenService#rotate.
 */
public final class RefreshTokenGrant {

    /**
     * The guards a refresh token must pass to be used, in the order they are checked. Each is a SQL
     * condition on the token {@code r} and its grant {@code g}; {@code %s} stands for the client's
     * application id. The token's own part and its grant's part are apart ({@link #TOKEN_LIVE},
     * {@link #GRANT_LIVE}: listings and counts read them so).
     */
    enum Guard {
        /** RFC 6749 §6: the refresh token was issued to the client that authenticated. */
        ISSUED_TO_CLIENT("r.application_id = %s", null),
        /** RFC 7009: not revoked (by its client, a user, an operator, or a replay). */
        NOT_REVOKED("r.revoked_at is null", null),
        /** RFC 9700 §4.14.2: used once only. */
        NOT_USED("r.used_at is null", null),
        /**
         * The latest of its user and application (decisions.md, "Refresh tokens"): a newer authorization
         * supersedes the older grant (since V23; before, it marked the token itself).
         */
        NOT_SUPERSEDED("r.superseded_at is null", "g.superseded_at is null");

        private final String onToken;
        private final String onGrant;

        Guard(String onToken, String onGrant) {
            this.onToken = onToken;
            this.onGrant = onGrant;
        }

        /** The condition, for the client {@code client} (a named parameter or a column). */
        String sql(String client) {
            String token = onToken.formatted(client);
            return onGrant == null ? token : token + " and " + onGrant;
        }

        /** Every guard holds, for the client {@code client}: the condition a token is used on. */
        static String allHold(String client) {
            return each(client, " and ");
        }

        /** Each guard's verdict as a column (true: it holds), in this order, for the client {@code client}. */
        static String verdicts(String client) {
            return each(client, ", ");
        }

        private static String each(String client, String separator) {
            return Arrays.stream(values()).map(g -> "(" + g.sql(client) + ")").collect(Collectors.joining(separator));
        }
    }

    /** Refresh token {@code r} itself is live: every guard but the client's holds on it (its grant: {@link #GRANT_LIVE}). */
    static final String TOKEN_LIVE = NOT_REVOKED.onToken + " and " + NOT_USED.onToken + " and " + NOT_SUPERSEDED.onToken;

    /** Grant {@code g} of a live refresh token is not superseded by a newer authorization of its pair. */
    static final String GRANT_LIVE = NOT_SUPERSEDED.onGrant;

    private final Jdbi jdbi;
    private final TokenService tokens;
    private final Duration replayWindow;
    private final OperatorNotices notices;
    private final AuditLog audit;

    RefreshTokenGrant(Jdbi jdbi, TokenService tokens, Duration replayWindow, OperatorNotices notices, AuditLog audit) {
        this.jdbi = jdbi;
        this.tokens = tokens;
        this.replayWindow = replayWindow;
        this.notices = notices;
        this.audit = audit;
    }

    public TokenResponse exchange(Application client, String refreshToken) {
        if (refreshToken == null || refreshToken.isEmpty()) throw invalidRequest("refresh_token is required for grant_type refresh_token");
        TokenFormat.Presented presented = tokens.parse(refreshToken);
        if (presented instanceof TokenFormat.Foreign) throw invalidGrant("refresh token is unknown");

        Optional<TokenPair> rotated = tokens.rotate(presented, client.id());
        if (rotated.isPresent()) return TokenResponse.of(rotated.get());

        RefreshTokenRow token = jdbi.withHandle(h -> new TokenStore(h).refreshToken(presented, client.id()))
                .orElseThrow(() -> invalidGrant("refresh token is unknown"));
        if (token.fails(ISSUED_TO_CLIENT)) throw invalidGrant("refresh token was issued to another client");
        if (token.fails(NOT_REVOKED)) throw invalidGrant("refresh token was revoked at " + token.revokedAt());
        if (token.fails(NOT_USED)) throw replayed(client, token);
        if (token.fails(NOT_SUPERSEDED)) {
            throw invalidGrant("refresh token was superseded at " + token.supersededAt()
                    + ": a newer authorization issued another one (only the latest is live)");
        }
        throw invalidGrant("refresh token is no longer live");   // every guard holds now: nothing makes a token live again
    }

    /**
     * A used token again: inside the window a retry race (refused), after it a theft (the grant
     * ends). The operator hears of it once, when this replay ended tokens that were still live: a
     * notice in the revoking transaction, an audit line once it has committed.
     */
    private OAuthError replayed(Application client, RefreshTokenRow token) {
        String used = "refresh token was already used at " + token.usedAt() + "; a newer one was issued";
        Instant now = tokens.now();
        Duration since = Duration.between(token.usedAt(), now);
        if (since.compareTo(replayWindow) <= 0) return invalidGrant(used);
        int revoked = jdbi.inTransaction(h -> {
            int n = tokens.revokeGrant(h, token.grantId());
            if (n > 0) notices.grantRevoked(h, token.grantId(), token.userId(), token.applicationId(), "refresh token replay", now);
            return n;
        });
        if (revoked > 0) {
            audit.record(AuditLog.Event.REFRESH_TOKEN_REPLAYED, "grant_id", token.grantId(), "user_id", token.userId(),
                    "application_id", token.applicationId(), "client_id", client.clientId(), "used_at", token.usedAt().toString(),
                    "presented_after_seconds", since.toSeconds(), "tokens_revoked", revoked);
        }
        return invalidGrant(used + ". Presented again " + since.toSeconds()
                + " s later, it is treated as stolen: every token of this authorization is now revoked");
    }
}
