package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Token introspection (RFC 7662), for a caller already authenticated: the platform's other services
 * with the operator key (any token), or a client with its own credentials (its own tokens only).
 *
 * <p>Reads like §2.2: a token that is unknown, expired, revoked, used, superseded, or another
 * client's answers {@code {"active": false}} and nothing else, so the endpoint tells a guesser
 * nothing. An active token answers active, scope, client_id, token_type, exp (access tokens only:
 * refresh tokens never expire), iat, sub (the user id) and, as an extension, token_use (access_token
 * or refresh_token) since one endpoint describes both kinds.
 */
public final class Introspection {
    /** Who asks: the operator (sees every token) or one client (sees only its own). */
    public record Caller(Application client) {
        public static Caller operator() {
            return new Caller(null);
        }

        boolean mayRead(long applicationId) {
            return client == null || client.id() == applicationId;
        }
    }

    private final Jdbi jdbi;
    private final Clock clock;
    private final ApplicationService applications;
    private final TokenFormat format;

    public Introspection(Jdbi jdbi, Clock clock, ApplicationService applications, TokenFormat format) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.applications = applications;
        this.format = format;
    }

    /** {@code tokenTypeHint} only orders the lookups (§2.1); an unknown hint is ignored. */
    public Map<String, Object> introspect(Caller caller, String token, String tokenTypeHint) {
        if (token == null || token.isEmpty()) throw OAuthError.invalidRequest("token is required");
        if (token.length() > TokenService.MAX_TOKEN_LENGTH) return inactive();
        TokenFormat.Presented presented = format.parse(token);
        if (presented instanceof TokenFormat.Foreign) return inactive();
        return jdbi.withHandle(h -> {
            TokenStore store = new TokenStore(h);
            boolean refreshFirst = "refresh_token".equals(tokenTypeHint);
            Optional<Map<String, Object>> first = refreshFirst ? refresh(caller, store, presented) : access(caller, store, presented);
            if (first.isPresent()) return first.get();
            return (refreshFirst ? access(caller, store, presented) : refresh(caller, store, presented)).orElseGet(Introspection::inactive);
        });
    }

    /** Empty when the token is no access token of ours; inactive when it is one the caller may not see, or one that ended. */
    private Optional<Map<String, Object>> access(Caller caller, TokenStore store, TokenFormat.Presented presented) {
        Optional<AccessTokenRow> row = store.accessToken(presented);
        if (row.isEmpty()) return Optional.empty();
        AccessTokenRow t = row.get();
        Instant now = clock.instant();
        if (!caller.mayRead(t.applicationId()) || t.revokedAt() != null || !now.isBefore(t.expiresAt())) return Optional.of(inactive());
        Map<String, Object> m = active(t.applicationId(), t.userId(), t.scopes(), store.accessTokenCreatedAt(t.id()));
        m.put("token_type", "Bearer");
        m.put("exp", t.expiresAt().getEpochSecond());
        m.put("token_use", "access_token");
        return Optional.of(m);
    }

    private Optional<Map<String, Object>> refresh(Caller caller, TokenStore store, TokenFormat.Presented presented) {
        Optional<RefreshTokenRow> row = store.refreshToken(presented);
        if (row.isEmpty()) return Optional.empty();
        RefreshTokenRow t = row.get();
        if (!caller.mayRead(t.applicationId()) || !t.isLive()) return Optional.of(inactive());
        Map<String, Object> m = active(t.applicationId(), t.userId(), t.scopes(), t.createdAt());
        m.put("token_use", "refresh_token");
        return Optional.of(m);
    }

    private Map<String, Object> active(long applicationId, long userId, String scopes, Instant issuedAt) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active", true);
        m.put("scope", scopes);
        m.put("client_id", applications.find(applicationId).map(Application::clientId).orElse(null));
        m.put("sub", Long.toString(userId));
        m.put("iat", issuedAt.getEpochSecond());
        return m;
    }

    private static Map<String, Object> inactive() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active", false);
        return m;
    }
}
