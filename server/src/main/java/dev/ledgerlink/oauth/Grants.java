package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;

/**
 * What a (user, application) pair holds, for people looking after it (the console, operators):
 * counts and times of its refresh chain and access tokens, never a token; and ending it all.
 */
public final class Grants {
    /** At most this many pairs are listed, the most recently issued first. */
    public static final int MAX_LISTED = 500;

    /**
     * One (user, application) pair. The live chain is the grant of the live refresh token: how many
     * refresh tokens it has issued (one per refresh, plus the first) and when the live one was issued.
     * Access tokens are live while neither revoked nor expired.
     */
    public record Summary(long userId, long applicationId, int authorizations, Instant lastIssuedAt,
                          Instant liveRefreshIssuedAt, int chainLength, int liveAccessTokens, int accessTokensIssued,
                          Instant lastAccessIssuedAt, Instant liveAccessUntil) {

        public boolean live() {
            return liveRefreshIssuedAt != null || liveAccessTokens > 0;
        }
    }

    private static final String LIVE_REFRESH = """
            r.user_id = s.user_id and r.application_id = s.application_id
              and r.used_at is null and r.superseded_at is null and r.revoked_at is null""";
    private static final String GRANTS_OF_PAIR = "select g.id from oauth_grants g where g.user_id = s.user_id and g.application_id = s.application_id";

    private static final String LIST = """
            select s.user_id, s.application_id, s.issued_at as last_issued_at,
                   (select count(*) from oauth_grants g where g.user_id = s.user_id and g.application_id = s.application_id) as authorizations,
                   (select max(r.created_at) from oauth_refresh_tokens r where %1$s) as live_refresh_issued_at,
                   (select count(*) from oauth_refresh_tokens c where c.grant_id in
                        (select r.grant_id from oauth_refresh_tokens r where %1$s)) as chain_length,
                   (select count(*) from oauth_access_tokens a where a.grant_id in (%2$s)
                        and a.revoked_at is null and a.expires_at > :now) as live_access_tokens,
                   (select count(*) from oauth_access_tokens a where a.grant_id in (%2$s)) as access_tokens_issued,
                   (select max(a.created_at) from oauth_access_tokens a where a.grant_id in (%2$s)) as last_access_issued_at,
                   (select max(a.expires_at) from oauth_access_tokens a where a.grant_id in (%2$s)
                        and a.revoked_at is null and a.expires_at > :now) as live_access_until
            from oauth_token_slots s
            where (:all or s.user_id in (<userIds>))
            order by s.issued_at desc, s.user_id, s.application_id
            limit %3$d""".formatted(LIVE_REFRESH, GRANTS_OF_PAIR, MAX_LISTED);

    private final Jdbi jdbi;
    private final TokenService tokens;

    public Grants(Jdbi jdbi, TokenService tokens) {
        this.jdbi = jdbi;
        this.tokens = tokens;
    }

    /** The pairs of these users ({@code null}: of everyone), most recently issued first. */
    public List<Summary> list(Collection<Long> userIds) {
        if (userIds != null && userIds.isEmpty()) return List.of();
        List<Long> ids = userIds == null ? List.of(-1L) : List.copyOf(userIds);
        return jdbi.withHandle(h -> h.createQuery(LIST)
                .bind("all", userIds == null).bindList("userIds", ids).bind("now", tokens.now())
                .map(ConstructorMapper.of(Summary.class)).list());
    }

    /**
     * Ends every authorization of this user and application: each grant's refresh tokens and the
     * access tokens issued with them (as revoking its refresh token would). Returns how many grants
     * still had a live token.
     */
    public int revoke(long userId, long applicationId) {
        return jdbi.inTransaction(h -> {
            Instant now = tokens.now();
            List<Long> grants = h.createQuery("""
                            select g.id from oauth_grants g where g.user_id = :userId and g.application_id = :applicationId
                              and (exists (select 1 from oauth_refresh_tokens r where r.grant_id = g.id and r.revoked_at is null
                                           and r.used_at is null and r.superseded_at is null)
                                   or exists (select 1 from oauth_access_tokens a where a.grant_id = g.id and a.revoked_at is null
                                              and a.expires_at > :now))""")
                    .bind("userId", userId).bind("applicationId", applicationId).bind("now", now)
                    .mapTo(Long.class).list();
            for (long grant : grants) tokens.revokeGrant(h, grant);
            return grants.size();
        });
    }
}
