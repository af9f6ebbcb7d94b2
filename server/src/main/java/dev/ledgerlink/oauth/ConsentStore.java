package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** What each user has granted each application (space-separated scopes). */
public interface ConsentStore {

    @SqlQuery("select scopes from oauth_consents where user_id = :userId and application_id = :applicationId")
    Optional<String> scopes(long userId, long applicationId);

    @SqlUpdate("""
            insert into oauth_consents (user_id, application_id, scopes, granted_at) values (:userId, :applicationId, :scopes, :now)
            on conflict do nothing""")
    int insert(long userId, long applicationId, String scopes, Instant now);

    @SqlUpdate("update oauth_consents set scopes = :scopes, granted_at = :now where user_id = :userId and application_id = :applicationId")
    int update(long userId, long applicationId, String scopes, Instant now);
}
