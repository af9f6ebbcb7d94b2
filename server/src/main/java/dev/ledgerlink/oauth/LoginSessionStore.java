package dev.ledgerlink.oauth;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.customizer.BindList;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Login sessions, found by the hash of the cookie's random id; login failures, counted per key. */
@RegisterConstructorMapper(LoginSession.class)
public interface LoginSessionStore {

    @SqlUpdate("""
            insert into oauth_login_sessions (session_hash, user_id, csrf_token, created_at, authenticated_at, expires_at, operator, second_factor_user_id)
            values (:sessionHash, :userId, :csrfToken, :now, :authenticatedAt, :expiresAt, :operator, :secondFactorUserId)""")
    void insert(String sessionHash, Long userId, String csrfToken, Instant now, Instant authenticatedAt, Instant expiresAt, boolean operator,
                Long secondFactorUserId);

    @SqlQuery("""
            select id, user_id, csrf_token, authenticated_at, expires_at, operator, second_factor_user_id from oauth_login_sessions
            where session_hash = :sessionHash and expires_at > :now""")
    Optional<LoginSession> find(String sessionHash, Instant now);

    @SqlUpdate("delete from oauth_login_sessions where session_hash = :sessionHash")
    int delete(String sessionHash);

    @SqlUpdate("delete from oauth_login_sessions where expires_at <= :now")
    int deleteExpired(Instant now);

    /** A sign-in try, recorded before its password is checked (LoginThrottle); it stays as a failure unless removed. */
    @SqlUpdate("insert into oauth_login_failures (throttle_key, failed_at) values (:throttleKey, :now)")
    @GetGeneratedKeys("id")
    long recordTry(String throttleKey, Instant now);

    @SqlUpdate("delete from oauth_login_failures where id in (<ids>)")
    int deleteTries(@BindList("ids") List<Long> ids);

    @SqlQuery("select count(*) from oauth_login_failures where throttle_key = :throttleKey and failed_at > :since")
    int failuresSince(String throttleKey, Instant since);

    @SqlQuery("select min(failed_at) from oauth_login_failures where throttle_key = :throttleKey and failed_at > :since")
    Optional<Instant> oldestFailureSince(String throttleKey, Instant since);

    @SqlUpdate("delete from oauth_login_failures where throttle_key = :throttleKey")
    int clearFailures(String throttleKey);

    @SqlUpdate("delete from oauth_login_failures where failed_at <= :before")
    int deleteFailuresBefore(Instant before);
}
