package dev.ledgerlink.oauth;

import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The operators' view of grants (one authorization of a user for an application, with every token
 * issued under it): list them by user or application, and revoke one, which ends its refresh token
 * and every access token issued with it at once (the same revocation replay detection uses).
 * Summed up per (user, application) pair for the console: counts and times, never a token.
 */
public final class Grants {
    /** Pairs summed up on one page of {@link #summaries}, the most recently issued first. */
    public static final int PER_PAGE = 50;

    /** {@code active}: the grant still has a live refresh token or an unexpired, unrevoked access token. */
    public record Grant(long id, long userId, long applicationId, String scopes, Instant createdAt, boolean active) {}

    /** Grant g still has a live refresh token (TokenService: the token and its grant are both live) or access token. */
    static final String HAS_LIVE_TOKEN = "(" + RefreshTokenGrant.GRANT_LIVE
            + " and exists (select 1 from oauth_refresh_tokens r where r.grant_id = g.id and " + RefreshTokenGrant.TOKEN_LIVE + "))" + """

             or exists (select 1 from oauth_access_tokens a where a.grant_id = g.id
                                and a.revoked_at is null and a.expires_at > :now)""";

    private static final String ACTIVE = "case when " + HAS_LIVE_TOKEN + " then true else false end as active";

    /**
     * The grants of a user, of an application or of both: only the conditions given (as "a null
     * parameter is no filter", H2 could use neither index, oauth_grants_pair nor oauth_grants_application).
     */
    private static String filter(boolean user, boolean application) {
        return "from oauth_grants g where " + (user && application ? "g.user_id = :userId and g.application_id = :applicationId"
                : user ? "g.user_id = :userId" : "g.application_id = :applicationId");
    }
    private static final String ONE = "select g.id, g.user_id, g.application_id, g.scopes, g.created_at, " + ACTIVE
            + " from oauth_grants g where g.id = :id";

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

    /** A page of pairs, and whether an older page follows. */
    public record SummaryPage(int page, List<Summary> summaries, boolean more) {}

    /**
     * The grants g of pair s, joined to their tokens by the tokens' grant index, one pair at a time:
     * each pair costs what its own grants and tokens are (an IN over a correlated subquery had H2 read
     * every token of every pair for each listed pair).
     */
    private static final String OF_PAIR = "from oauth_grants g join %s on %s.grant_id = g.id where g.user_id = s.user_id and g.application_id = s.application_id";
    private static final String REFRESH_OF_PAIR = OF_PAIR.formatted("oauth_refresh_tokens r", "r");
    private static final String ACCESS_OF_PAIR = OF_PAIR.formatted("oauth_access_tokens a", "a");
    /** The pair's live grant has a live token (its chain is the live chain). */
    private static final String LIVE_CHAIN = RefreshTokenGrant.GRANT_LIVE
            + " and exists (select 1 from oauth_refresh_tokens l where l.grant_id = g.id and "
            + RefreshTokenGrant.TOKEN_LIVE.replace("r.", "l.") + ")";

    private static final String LIST = """
            select s.user_id, s.application_id, s.issued_at as last_issued_at,
                   (select count(*) from oauth_grants g where g.user_id = s.user_id and g.application_id = s.application_id) as authorizations,
                   (select max(r.created_at) %1$s and %3$s and %4$s) as live_refresh_issued_at,
                   (select count(*) %1$s and %5$s) as chain_length,
                   (select count(*) %2$s and a.revoked_at is null and a.expires_at > :now) as live_access_tokens,
                   (select count(*) %2$s) as access_tokens_issued,
                   (select max(a.created_at) %2$s) as last_access_issued_at,
                   (select max(a.expires_at) %2$s and a.revoked_at is null and a.expires_at > :now) as live_access_until
            from oauth_token_slots s
            where (:all or s.user_id in (<userIds>))
            order by s.issued_at desc, s.user_id desc, s.application_id desc
            limit :limit offset :offset""".formatted(REFRESH_OF_PAIR, ACCESS_OF_PAIR, RefreshTokenGrant.GRANT_LIVE, RefreshTokenGrant.TOKEN_LIVE,
            LIVE_CHAIN);

    private final Jdbi jdbi;
    private final TokenService tokens;

    Grants(Jdbi jdbi, TokenService tokens) {
        this.jdbi = jdbi;
        this.tokens = tokens;
    }

    /** Grants of a user, of an application, or of that user for that application; newest first. One filter is required. */
    public Paging.Page<Grant> list(Long userId, Long applicationId, Paging paging) {
        new Validation().check(userId != null || applicationId != null, "user_id",
                "give user_id or application_id (or both): grants are listed by user or by application").throwIfInvalid();
        Instant now = tokens.now();
        String filter = filter(userId != null, applicationId != null);
        return jdbi.withHandle(h -> {
            var count = h.createQuery("select count(*) " + filter);
            var page = h.createQuery("select g.id, g.user_id, g.application_id, g.scopes, g.created_at, " + ACTIVE + " " + filter
                    + " order by g.id desc limit :limit offset :offset");
            if (userId != null) {
                count.bind("userId", userId);
                page.bind("userId", userId);
            }
            if (applicationId != null) {
                count.bind("applicationId", applicationId);
                page.bind("applicationId", applicationId);
            }
            long total = count.mapTo(Long.class).one();
            List<Grant> rows = page.bind("now", now).bind("limit", paging.perPage()).bind("offset", paging.offset()).map(MAPPER).list();
            return paging.page(total, rows);
        });
    }

    public Grant show(long grantId) {
        return jdbi.withHandle(h -> find(h, grantId)).orElseThrow(() -> ServiceException.notFound("No grant " + grantId + "."));
    }

    /** Ends every token of the grant; revoking a grant already ended changes nothing. */
    public Grant revoke(long grantId) {
        return jdbi.inTransaction(h -> {
            if (find(h, grantId).isEmpty()) throw ServiceException.notFound("No grant " + grantId + ".");
            tokens.revokeGrant(h, grantId);
            return find(h, grantId).orElseThrow();
        });
    }

    /**
     * A page of the pairs of these users ({@code null}: of everyone), most recently issued first
     * (oauth_token_slots_issued), {@link #PER_PAGE} to a page: each pair listed costs a dozen index
     * probes, so a page stays quick however many pairs there are.
     */
    public SummaryPage summaries(Collection<Long> userIds, int page) {
        int p = Math.max(1, page);
        if (userIds != null && userIds.isEmpty()) return new SummaryPage(p, List.of(), false);
        List<Long> ids = userIds == null ? List.of(-1L) : List.copyOf(userIds);
        List<Summary> rows = jdbi.withHandle(h -> h.createQuery(LIST)
                .bind("all", userIds == null).bindList("userIds", ids).bind("now", tokens.now())
                .bind("limit", PER_PAGE + 1).bind("offset", (long) (p - 1) * PER_PAGE)
                .map(ConstructorMapper.of(Summary.class)).list());
        boolean more = rows.size() > PER_PAGE;
        return new SummaryPage(p, more ? rows.subList(0, PER_PAGE) : rows, more);
    }

    /** The applications these users have authorized (a grant of the pair was ever made). */
    public List<Long> applicationsAuthorizedBy(Collection<Long> userIds) {
        if (userIds.isEmpty()) return List.of();
        return jdbi.withHandle(h -> h.createQuery("select distinct application_id from oauth_token_slots where user_id in (<userIds>)")
                .bindList("userIds", List.copyOf(userIds)).mapTo(Long.class).list());
    }

    /**
     * Ends every authorization of this user and application: each grant's refresh tokens and the
     * access tokens issued with them (as revoking its refresh token would). Returns how many grants
     * still had a live token.
     */
    public int revokePair(long userId, long applicationId) {
        return jdbi.inTransaction(h -> {
            Instant now = tokens.now();
            List<Long> grants = h.createQuery("""
                            select g.id from oauth_grants g where g.user_id = :userId and g.application_id = :applicationId
                              and (""" + HAS_LIVE_TOKEN + ")")
                    .bind("userId", userId).bind("applicationId", applicationId).bind("now", now)
                    .mapTo(Long.class).list();
            for (long grant : grants) tokens.revokeGrant(h, grant);
            return grants.size();
        });
    }

    private Optional<Grant> find(Handle h, long grantId) {
        return h.createQuery(ONE).bind("id", grantId).bind("now", tokens.now()).map(MAPPER).findOne();
    }

    private static final RowMapper<Grant> MAPPER = new RowMapper<>() {
        @Override
        public Grant map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Grant(rs.getLong("id"), rs.getLong("user_id"), rs.getLong("application_id"), rs.getString("scopes"),
                    TimeMapping.read(rs, "created_at"), rs.getBoolean("active"));
        }
    };
}
