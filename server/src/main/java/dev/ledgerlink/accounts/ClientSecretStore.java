package dev.ledgerlink.accounts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * Client authentication in one indexed query: the application with its secret hash. Its own small
 * SQL object because it runs on every token request, and JDBI builds a handler for every method of
 * an interface each time one is attached.
 */
@RegisterRowMapper(ClientSecretStore.Mapper.class)
public interface ClientSecretStore {

    record WithSecretHash(Application application, String secretHash) {}

    @SqlQuery("select " + ApplicationStore.COLUMNS + ", client_secret_hash from applications where client_id = :clientId")
    Optional<WithSecretHash> findWithSecretHash(String clientId);

    final class Mapper implements RowMapper<WithSecretHash> {
        private final ApplicationStore.Mapper application = new ApplicationStore.Mapper();

        @Override
        public WithSecretHash map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new WithSecretHash(application.map(rs, ctx), rs.getString("client_secret_hash"));
        }
    }
}
