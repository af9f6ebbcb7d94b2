package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Authorization codes, looked up by the unique index on their hash. */
@RegisterConstructorMapper(AuthorizationCodeRow.class)
public interface AuthorizationCodeStore {

    @SqlUpdate("""
            insert into oauth_authorization_codes (code_hash, application_id, user_id, scopes, redirect_uri,
                code_challenge, code_challenge_method, created_at, expires_at)
            values (:codeHash, :applicationId, :userId, :scopes, :redirectUri, :codeChallenge, :codeChallengeMethod, :now, :expiresAt)""")
    void insert(String codeHash, long applicationId, long userId, String scopes, String redirectUri,
                String codeChallenge, String codeChallengeMethod, Instant now, Instant expiresAt);

    String COLUMNS = "id, application_id, user_id, scopes, redirect_uri, code_challenge, code_challenge_method, expires_at, used_at, revoked_at";

    @SqlQuery("select " + COLUMNS + " from oauth_authorization_codes where code_hash = :codeHash")
    Optional<AuthorizationCodeRow> find(String codeHash);

    @SqlQuery("select " + COLUMNS + " from oauth_authorization_codes where id = :id")
    Optional<AuthorizationCodeRow> byId(long id);

    @SqlQuery("select used_at from oauth_authorization_codes where id = :id")
    Optional<Instant> usedAt(long id);

    /**
     * Single use, and not once revoked: exactly one caller sees 1, on any node. Run under the pair's
     * lock (TokenService.lockPair), so a disconnect that committed before it is seen by it.
     */
    @SqlUpdate("update oauth_authorization_codes set used_at = :now where id = :id and used_at is null and revoked_at is null")
    int use(long id, Instant now);

    /**
     * A disconnect's: every code of the pair not exchanged yet is revoked, under the pair's lock. Their
     * expiry is brought to now as well: the release before V45 reads only expires_at (expand, then contract).
     */
    @SqlUpdate("""
            update oauth_authorization_codes set revoked_at = :now, expires_at = least(expires_at, :now)
            where user_id = :userId and application_id = :applicationId and used_at is null and revoked_at is null""")
    int revokeUnused(long userId, long applicationId, Instant now);
}
