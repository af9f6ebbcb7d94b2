package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlBatch;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/** What each user has granted each application: one row per scope, only ever added to by a grant. */
public interface ConsentStore {

    @SqlQuery("select scope from oauth_consent_scopes where user_id = :userId and application_id = :applicationId")
    List<String> scopes(long userId, long applicationId);

    /** Adds the scopes not granted yet; a scope granted already (or by a concurrent grant) keeps its row. */
    @SqlBatch("""
            insert into oauth_consent_scopes (user_id, application_id, scope, granted_at) values (:userId, :applicationId, :scope, :now)
            on conflict do nothing""")
    void grant(long userId, long applicationId, @Bind("scope") Collection<String> scopes, Instant now);
}
