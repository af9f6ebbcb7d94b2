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

    /**
     * Refresh token r is the live one of grant {@code grant}: the grant is not superseded and the token is
     * live, found through the pair's live-token index (at most one entry per pair) rather than among all
     * the grant's tokens.
     */
    private static String liveRefreshOf(String grant) {
        return "r.user_id = %1$s.user_id and r.application_id = %1$s.application_id and r.grant_id = %1$s.id and %2$s and %3$s".formatted(grant,
                RefreshTokenGrant.TOKEN_LIVE, RefreshTokenGrant.GRANT_LIVE.replace("g.", grant + "."));
    }

    /** Grant g has a live refresh token. */
    private static final String HAS_LIVE_REFRESH = "exists (select 1 from oauth_refresh_tokens r where " + liveRefreshOf("g") + ")";

    /** Grant g still has a live refresh token (TokenService: the token and its grant are both live) or access token. */
    static final String HAS_LIVE_TOKEN = HAS_LIVE_REFRESH + """

             or exists (select 1 from oauth_access_tokens a where a.grant_id = g.id
                                and a.revoked_at is null and a.expires_at > :now)""";

    /**
     * As {@link #HAS_LIVE_TOKEN}, for what lists grants (the admin API's lists, the connected
     * applications): a live access token is looked for among the grant's newest {@link #COUNTED} + 1,
     * so that a grant refreshed for years costs a listing what a new one does. It differs only for a
     * grant that issued more than that many access tokens within one token lifetime and then had the
     * newest all revoked one by one; revoking (revokePair) looks at every token.
     */
    static final String LISTED_LIVE = HAS_LIVE_REFRESH + " or exists (select 1 " + newestOf("oauth_access_tokens", "a", "g.id")
            + " and a.revoked_at is null and a.expires_at > :now)";

    private static final String ACTIVE = "case when " + LISTED_LIVE + " then true else false end as active";

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
     * The access tokens are those of the pair's newest authorization; they are live while neither
     * revoked nor expired. Counts stop above {@link #COUNTED}.
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
     * How many of a grant's tokens the console counts: a count above it shows as "more than" it. Each
     * count reads at most this many entries of the grant's index (V46: grant_id, id), newest first, so
     * a page of pairs costs the same whether their chains were refreshed ten times or a million.
     */
    public static final int COUNTED = 1_000;

    /**
     * Tokens {@code t} of {@code table} of grant {@code grant}, the newest {@link #COUNTED} + 1 of them:
     * from the id of the one {@code COUNTED} places before the newest (none: from the first), both read
     * along the (grant_id, id) index (V46). {@code grant} must be a column of an outer row, not a
     * subquery: H2 reads an index by a subquery's value only by reading the whole table. The inner order
     * names both columns and the condition on id is there so that H2 also takes that index, sorted, over
     * the foreign key's index on grant_id.
     */
    private static String newestOf(String table, String t, String grant) {
        return ("from %1$s %2$s where %2$s.grant_id = %3$s and %2$s.id >= coalesce((select n.id from %1$s n where n.grant_id = %3$s and n.id > 0"
                + " order by n.grant_id desc, n.id desc offset %4$d rows fetch next 1 rows only), 0)").formatted(table, t, grant, COUNTED);
    }

    /**
     * A page of pairs s along oauth_token_slots_issued, each with its newest authorization ng (a pair's
     * live chain, if it has one, is that grant's: a new authorization supersedes the one before), summed
     * up by index probes and bounded ranges: its authorizations, its live refresh token and the length of
     * that token's chain, and ng's access tokens (how many issued, how many live, the newest, valid until
     * when), counted up to {@link #COUNTED} + 1.
     */
    private static final String LIST = """
            select s.user_id, s.application_id, s.issued_at as last_issued_at,
                   (select count(*) from oauth_grants g where g.user_id = s.user_id and g.application_id = s.application_id) as authorizations,
                   (select max(r.created_at) from oauth_refresh_tokens r where %1$s) as live_refresh_issued_at,
                   case when exists (select 1 from oauth_refresh_tokens r where %1$s) then (select count(*) %2$s) else 0 end as chain_length,
                   (select count(*) %3$s and a.revoked_at is null and a.expires_at > :now) as live_access_tokens,
                   (select count(*) %3$s) as access_tokens_issued,
                   (select max(a.created_at) %3$s) as last_access_issued_at,
                   (select max(a.expires_at) %3$s and a.revoked_at is null and a.expires_at > :now) as live_access_until
            from oauth_token_slots s
            left join oauth_grants ng on ng.user_id = s.user_id and ng.application_id = s.application_id
                 and not exists (select 1 from oauth_grants later where later.user_id = ng.user_id and later.application_id = ng.application_id
                                 and later.id > ng.id)
            where (:all or s.user_id in (<userIds>))
            order by s.issued_at desc, s.user_id desc, s.application_id desc
            limit :limit offset :offset""".formatted(liveRefreshOf("ng"), newestOf("oauth_refresh_tokens", "c", "ng.id"),
            newestOf("oauth_access_tokens", "a", "ng.id"));

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
