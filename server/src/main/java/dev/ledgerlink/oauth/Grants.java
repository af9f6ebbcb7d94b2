package dev.ledgerlink.oauth;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.paging.Paging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The operators' view of grants (one authorization of a user for an application, with every token
 * issued under it): list them by user or application, and revoke one, which ends its refresh token
 * and every access token issued with it at once (the same revocation replay detection uses).
 */
public final class Grants {
    /** {@code active}: the grant still has a live refresh token or an unexpired, unrevoked access token. */
    public record Grant(long id, long userId, long applicationId, String scopes, Instant createdAt, boolean active) {}

    private static final String ACTIVE = """
            case when exists (select 1 from oauth_refresh_tokens r where r.grant_id = g.id
                                and r.used_at is null and r.superseded_at is null and r.revoked_at is null)
                   or exists (select 1 from oauth_access_tokens a where a.grant_id = g.id
                                and a.revoked_at is null and a.expires_at > :now)
                 then true else false end as active""";

    private static final String FILTER = """
            from oauth_grants g
            where (cast(:userId as bigint) is null or g.user_id = :userId)
              and (cast(:applicationId as bigint) is null or g.application_id = :applicationId)""";

    private static final String PAGE = "select g.id, g.user_id, g.application_id, g.scopes, g.created_at, " + ACTIVE + " " + FILTER
            + " order by g.id desc limit :limit offset :offset";
    private static final String COUNT = "select count(*) " + FILTER;
    private static final String ONE = "select g.id, g.user_id, g.application_id, g.scopes, g.created_at, " + ACTIVE
            + " from oauth_grants g where g.id = :id";

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
        return jdbi.withHandle(h -> {
            long total = h.createQuery(COUNT).bind("userId", userId).bind("applicationId", applicationId).mapTo(Long.class).one();
            List<Grant> page = h.createQuery(PAGE).bind("userId", userId).bind("applicationId", applicationId).bind("now", now)
                    .bind("limit", paging.perPage()).bind("offset", paging.offset()).map(MAPPER).list();
            return paging.page(total, page);
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

    private Optional<Grant> find(Handle h, long grantId) {
        return h.createQuery(ONE).bind("id", grantId).bind("now", tokens.now()).map(MAPPER).findOne();
    }

    private static final RowMapper<Grant> MAPPER = new RowMapper<>() {
        @Override
        public Grant map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Grant(rs.getLong("id"), rs.getLong("user_id"), rs.getLong("application_id"), rs.getString("scopes"),
                    ctx.findColumnMapperFor(Instant.class).orElseThrow().map(rs, "created_at", ctx), rs.getBoolean("active"));
        }
    };
}
