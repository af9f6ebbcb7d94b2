package dev.ledgerlink.accounts;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The applications table. Redirect URIs are stored one per line, scopes space-separated. */
@RegisterRowMapper(ApplicationStore.Mapper.class)
public interface ApplicationStore {

    String COLUMNS = "id, client_id, name, redirect_uris, scopes, created_at, secret_rotated_at, previous_secret_expires_at, owner_account_id";

    @SqlUpdate("""
            insert into applications (client_id, client_secret_hash, name, redirect_uris, scopes, created_at, secret_rotated_at, owner_account_id)
            values (:clientId, :secretHash, :name, :redirectUris, :scopes, :createdAt, :createdAt, :ownerAccountId)""")
    @GetGeneratedKeys("id")
    long insert(String clientId, String secretHash, String name, String redirectUris, String scopes, Instant createdAt, String ownerAccountId);

    @SqlQuery("select " + COLUMNS + " from applications where id = :id")
    Optional<Application> find(long id);

    @SqlQuery("select " + COLUMNS + " from applications where id in (<ids>)")
    List<Application> findAll(@org.jdbi.v3.sqlobject.customizer.BindList("ids") java.util.Collection<Long> ids);

    @SqlQuery("select " + COLUMNS + " from applications where client_id = :clientId")
    Optional<Application> findByClientId(String clientId);

    @SqlQuery("select client_secret_hash from applications where client_id = :clientId")
    Optional<String> secretHash(String clientId);

    @SqlQuery("select " + COLUMNS + " from applications order by id")
    List<Application> list();

    @SqlQuery("select " + COLUMNS + " from applications where owner_account_id in (<accountIds>) order by id")
    List<Application> ownedBy(@org.jdbi.v3.sqlobject.customizer.BindList("accountIds") java.util.Collection<String> accountIds);

    /** The current secret becomes the previous one, valid until {@code keepOldUntil} (null: not at all). */
    @SqlUpdate("""
            update applications set previous_secret_hash = case when cast(:keepOldUntil as timestamp with time zone) is null
                                                               then null else client_secret_hash end,
                   previous_secret_expires_at = :keepOldUntil,
                   client_secret_hash = :secretHash, secret_rotated_at = :now
            where id = :id""")
    int rotateSecret(long id, String secretHash, Instant now, Instant keepOldUntil);

    /** 1 when there was a previous secret to retire. */
    @SqlUpdate("""
            update applications set previous_secret_hash = null, previous_secret_expires_at = null
            where id = :id and previous_secret_hash is not null""")
    int retirePreviousSecret(long id);

    @SqlQuery("select " + COLUMNS + " from applications order by id limit :limit offset :offset")
    List<Application> page(int limit, long offset);

    @SqlQuery("select count(*) from applications")
    long count();

    final class Mapper implements RowMapper<Application> {
        @Override
        public Application map(ResultSet rs, StatementContext ctx) throws SQLException {
            return read(rs);
        }

        /** The application in the current row (the columns of {@link #COLUMNS}), for plain-JDBC readers too. */
        static Application read(ResultSet rs) throws SQLException {
            return new Application(rs.getLong("id"), rs.getString("client_id"), rs.getString("name"),
                    List.of(rs.getString("redirect_uris").split("\n")),
                    Scopes.parse(rs.getString("scopes")),
                    TimeMapping.read(rs, "created_at"), TimeMapping.read(rs, "secret_rotated_at"),
                    TimeMapping.read(rs, "previous_secret_expires_at"), rs.getString("owner_account_id"));
        }
    }
}
