package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Grants (one authorization of a user for an application) and the per (user, application) slot that
 * orders new authorizations of a pair: inserting a grant, finding a code's, superseding the pair's
 * live one. The tokens issued under a grant are in {@link TokenStore}.
 */
public interface GrantStore {

    @SqlUpdate("""
            insert into oauth_grants (user_id, application_id, code_id, scopes, created_at)
            values (:userId, :applicationId, :codeId, :scopes, :now)""")
    @GetGeneratedKeys("id")
    long insertGrant(long userId, long applicationId, Long codeId, String scopes, Instant now);

    @SqlQuery("select id from oauth_grants where code_id = :codeId")
    Optional<Long> grantOfCode(long codeId);

    /** Creates the slot of a (user, application) the first time; a concurrent creator just waits and does nothing. */
    @SqlUpdate("""
            insert into oauth_token_slots (user_id, application_id, issued_at) values (:userId, :applicationId, :now)
            on conflict do nothing""")
    void ensureSlot(long userId, long applicationId, Instant now);

    /** Takes the slot's row lock until commit: issues for one (user, application) happen one at a time. */
    @SqlUpdate("update oauth_token_slots set issued_at = :now where user_id = :userId and application_id = :applicationId")
    int lockSlot(long userId, long applicationId, Instant now);

    /** Ends the pair's live grant, if any: its refresh tokens are no longer live (TokenStore reads the grant with the token). */
    @SqlUpdate("""
            update oauth_grants set superseded_at = :now
            where user_id = :userId and application_id = :applicationId and superseded_at is null""")
    int supersedeLiveGrant(long userId, long applicationId, Instant now);
}
