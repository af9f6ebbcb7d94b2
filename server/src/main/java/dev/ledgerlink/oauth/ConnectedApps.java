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
 * expires the codes issued and not yet exchanged, and is written to the audit trail. It runs under
 * the pair's slot lock, so no new authorization of the pair interleaves with it. A refresh that
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
            + Grants.HAS_LIVE_TOKEN + ")";

    /** The live refresh token of each of the user's pairs: when it was issued (no write on the token path: a column it already has). */
    private static final String LAST_USED = """
            select g.application_id, max(r.created_at) as issued_at from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id
            where g.user_id = :userId and\s""" + RefreshTokenGrant.GRANT_LIVE + " and " + RefreshTokenGrant.TOKEN_LIVE + """

            group by g.application_id""";

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
            GrantStore grants = h.attach(GrantStore.class);
            grants.ensureSlot(userId, app.id(), now);
            grants.lockSlot(userId, app.id(), now);   // new authorizations of the pair wait for this one
            h.createUpdate("delete from oauth_consent_scopes where user_id = :userId and application_id = :applicationId")
                    .bind("userId", userId).bind("applicationId", app.id()).execute();
            h.createUpdate("""
                            update oauth_authorization_codes set expires_at = :now
                            where user_id = :userId and application_id = :applicationId and used_at is null and expires_at > :now""")
                    .bind("userId", userId).bind("applicationId", app.id()).bind("now", now).execute();
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
