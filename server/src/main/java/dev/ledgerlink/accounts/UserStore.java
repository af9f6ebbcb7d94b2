package dev.ledgerlink.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The users table. */
@RegisterConstructorMapper(User.class)
public interface UserStore {

    @SqlUpdate("""
            insert into users (email, email_key, password_hash, first_name, last_name, created_at)
            values (:email, :emailKey, :passwordHash, :firstName, :lastName, :createdAt)""")
    @GetGeneratedKeys("id")
    long insert(String email, String emailKey, String passwordHash, String firstName, String lastName, Instant createdAt);

    @SqlQuery("select id, email, first_name, last_name, created_at from users where id = :id")
    Optional<User> find(long id);

    @SqlQuery("select id, email, first_name, last_name, created_at from users where email_key = :emailKey")
    Optional<User> findByEmailKey(String emailKey);

    @SqlQuery("select id, email, first_name, last_name, created_at from users where id in (<ids>)")
    List<User> findAll(@org.jdbi.v3.sqlobject.customizer.BindList("ids") java.util.Collection<Long> ids);

    @SqlQuery("select password_hash from users where id = :id")
    Optional<String> passwordHash(long id);

    @SqlQuery("select count(*) from users")
    long count();

    @SqlQuery("select id, email, first_name, last_name, created_at from users order by id")
    java.util.List<User> list();

    @SqlUpdate("update users set password_hash = :passwordHash where id = :id")
    int setPasswordHash(long id, String passwordHash);

    @SqlQuery("select id, email, first_name, last_name, created_at from users order by id limit :limit offset :offset")
    List<User> page(int limit, long offset);
}
