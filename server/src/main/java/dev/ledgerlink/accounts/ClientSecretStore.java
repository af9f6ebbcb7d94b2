package dev.ledgerlink.accounts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Client authentication in one indexed query: the application with its secret hash. It runs on every
 * token request, so it uses JDBI's fluent API: attaching a SQL object to a fresh handle (factory
 * lookup, a handler per method) cost more CPU than the query itself.
 */
final class ClientSecretStore {
    static final String FIND_WITH_SECRET_HASH =
            "select " + ApplicationStore.COLUMNS + ", client_secret_hash, previous_secret_hash from applications where client_id = :clientId";

    /** {@code previousSecretHash}: the secret before the last rotation, null when none was kept. */
    record WithSecretHash(Application application, String secretHash, String previousSecretHash) {}

    private static final RowMapper<WithSecretHash> MAPPER = new RowMapper<>() {
        private final ApplicationStore.Mapper application = new ApplicationStore.Mapper();

        @Override
        public WithSecretHash map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new WithSecretHash(application.map(rs, ctx), rs.getString("client_secret_hash"), rs.getString("previous_secret_hash"));
        }
    };

    private final Handle h;

    ClientSecretStore(Handle h) {
        this.h = h;
    }

    Optional<WithSecretHash> findWithSecretHash(String clientId) {
        return h.createQuery(FIND_WITH_SECRET_HASH).bind("clientId", clientId).map(MAPPER).findOne();
    }
}
