package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.TimeMapping;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * A user's connected applications (decisions.md, "Users and their grants"): every application the
 * user authorized that can still act for them (a live token) or would be let in again without
 * asking (remembered consent). The user sees the list on the hosted sign-in's account page and its
 * JSON API, an operator through the admin API and the CLI; either may disconnect one.
 *
 * <p>Disconnecting ends every authorization of the pair at once (each grant's refresh and access
 * tokens, as revoking the grant does), forgets the consent (the next authorization asks again),
 * revokes the codes issued and not yet exchanged, and is written to the audit trail. It runs under
 * the pair's lock (TokenService.lockPair), as every new authorization and code exchange of the pair
 * does from before it uses its code: an exchange either commits first, and its tokens are revoked
 * here, or waits, and then finds its code revoked (AuthorizationCodeGrant). A refresh that
 * used its token just before the revocation reached the token's row commits its successor unseen by
 * the revocation's statement: the tokens of the pair's grants are revoked once more after the
 * commit, when that successor is visible (any later refresh finds its token revoked).
 */
public final class ConnectedApps {
    /** One connected application; {@code lastUsedAt}: when its live refresh token was issued (null: none is live). */
    public record ConnectedApp(Application application, List<String> scopes, Instant connectedAt, Instant lastUsedAt) {}

    /** What a disconnect did: the application, and how many tokens stopped working. */
    public record Disconnected(Application application, int tokensRevoked) {}

    /** Who disconnected: the user on their page or API, or an operator acting for them. */
    public enum By { USER, OPERATOR }

    private static final String CONSENTS = """
            select application_id, scope, granted_at from oauth_consent_scopes where user_id = :userId""";

    private static final String LIVE_GRANTS = "select g.application_id, g.scopes, g.created_at from oauth_grants g where g.user_id = :userId and ("
            + Grants.LISTED_LIVE + ")";

    /**
     * The live refresh token of each of the user's pairs: when it was issued (no write on the token path:
     * a column it already has). One probe of the live-token index per pair, however many tokens its
     * chain issued.
     */
    private static final String LAST_USED = """
            select s.application_id, (select max(r.created_at) from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id
                                      where r.user_id = s.user_id and r.application_id = s.application_id and\s""" + RefreshTokenGrant.GRANT_LIVE
            + " and " + RefreshTokenGrant.TOKEN_LIVE + """
            ) as issued_at
            from oauth_token_slots s where s.user_id = :userId""";

    private static final String GRANTS_OF_PAIR = "select g.id from oauth_grants g where g.user_id = :userId and g.application_id = :applicationId";

    private final Jdbi jdbi;
    private final TokenService tokens;
    private final ApplicationService applications;
    private final AuditLog audit;

    ConnectedApps(Jdbi jdbi, TokenService tokens, ApplicationService applications, AuditLog audit) {
        this.jdbi = jdbi;
        this.tokens = tokens;
        this.applications = applications;
        this.audit = audit;
    }

    /** The user's connected applications, by name. */
    public List<ConnectedApp> of(long userId) {
        Instant now = tokens.now();
        Map<Long, Pair> pairs = new HashMap<>();
        Map<Long, Instant> lastUsed = new HashMap<>();
        jdbi.useHandle(h -> {
            h.createQuery(CONSENTS).bind("userId", userId).map((rs, ctx) ->
                    pairs.computeIfAbsent(rs.getLong("application_id"), k -> new Pair()).add(rs.getString("scope"), TimeMapping.read(rs, "granted_at")))
                    .list();
            h.createQuery(LIVE_GRANTS).bind("userId", userId).bind("now", now).map((rs, ctx) ->
                    pairs.computeIfAbsent(rs.getLong("application_id"), k -> new Pair()).add(rs.getString("scopes"), TimeMapping.read(rs, "created_at")))
                    .list();
            h.createQuery(LAST_USED).bind("userId", userId).map((rs, ctx) -> lastUsed.put(rs.getLong("application_id"), TimeMapping.read(rs, "issued_at")))
                    .list();
        });
        List<ConnectedApp> out = new ArrayList<>();
        pairs.forEach((applicationId, p) -> applications.find(applicationId).ifPresent(app ->
                out.add(new ConnectedApp(app, List.copyOf(p.scopes), p.since, lastUsed.get(applicationId)))));
        out.sort(Comparator.comparing((ConnectedApp c) -> c.application().name().toLowerCase(java.util.Locale.ROOT))
                .thenComparing(c -> c.application().clientId()));
        return out;
    }

    /** What the rows say of one pair: the scopes consented to or granted, and the earliest of their times. */
    private static final class Pair {
        final TreeSet<String> scopes = new TreeSet<>();
        Instant since;

        Pair add(String spaceSeparated, Instant at) {
            for (String s : spaceSeparated.trim().split("\\s+")) if (!s.isEmpty()) scopes.add(s);
            if (since == null || at.isBefore(since)) since = at;
            return this;
        }
    }

    /** The user's connected application {@code clientId}, or empty when it is not connected (or unknown). */
    public Optional<ConnectedApp> find(long userId, String clientId) {
        return of(userId).stream().filter(c -> c.application().clientId().equals(clientId)).findFirst();
    }

    /**
     * Disconnects the application {@code idOrClientId} from the user: 404 when it is unknown or not
     * connected. {@code address} is the client address of a user's request (null for an operator).
     */
    public Disconnected disconnect(long userId, String idOrClientId, By by, String address) {
        Application app = applicationOf(idOrClientId);
        if (find(userId, app.clientId()).isEmpty()) throw notConnected(idOrClientId);
        int revoked = jdbi.inTransaction(h -> {
            Instant now = tokens.now();
            tokens.lockPair(h, userId, app.id(), now);   // new authorizations and code exchanges of the pair wait for this one
            h.createUpdate("delete from oauth_consent_scopes where user_id = :userId and application_id = :applicationId")
                    .bind("userId", userId).bind("applicationId", app.id()).execute();
            h.attach(AuthorizationCodeStore.class).revokeUnused(userId, app.id(), now);
            return revokeAll(h, userId, app.id());
        });
        revoked += jdbi.inTransaction(h -> revokeAll(h, userId, app.id()));
        audit.record(AuditLog.Event.CONNECTED_APP_DISCONNECTED, "by", by.name().toLowerCase(java.util.Locale.ROOT), "user_id", userId,
                "application_id", app.id(), "client_id", app.clientId(), "tokens_revoked", revoked, "address", address);
        return new Disconnected(app, revoked);
    }

    private int revokeAll(Handle h, long userId, long applicationId) {
        int n = 0;
        for (long grant : h.createQuery(GRANTS_OF_PAIR).bind("userId", userId).bind("applicationId", applicationId).mapTo(Long.class).list()) {
            n += tokens.revokeGrant(h, grant);
        }
        return n;
    }

    private Application applicationOf(String idOrClientId) {
        try {
            return applications.show(idOrClientId);
        } catch (ServiceException e) {
            if (e.kind() == ServiceException.Kind.NOT_FOUND) throw notConnected(idOrClientId);
            throw e;
        }
    }

    private static ServiceException notConnected(String idOrClientId) {
        return ServiceException.notFound("No connected application " + idOrClientId + ".");
    }
}
