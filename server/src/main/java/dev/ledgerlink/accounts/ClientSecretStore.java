package dev.ledgerlink.accounts;

import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Client authentication in one indexed query: the application with its secret hash. It runs on every
 * token request, so it is plain JDBC on the handle's connection (store/PlainJdbc says why).
 */
final class ClientSecretStore {
    static final Named FIND_WITH_SECRET_HASH = Named.sql(
            "select " + ApplicationStore.COLUMNS + ", client_secret_hash, previous_secret_hash from applications where client_id = :clientId");

    /** {@code previousSecretHash}: the secret before the last rotation, null when none was kept. */
    record WithSecretHash(Application application, String secretHash, String previousSecretHash) {}

    private final Handle h;

    ClientSecretStore(Handle h) {
        this.h = h;
    }

    Optional<WithSecretHash> findWithSecretHash(String clientId) {
        return PlainJdbc.queryOne(h, FIND_WITH_SECRET_HASH, p -> p.set("clientId", clientId), r -> new WithSecretHash(
                ApplicationStore.Mapper.read(r), r.getString("client_secret_hash"), r.getString("previous_secret_hash")));
    }
}
