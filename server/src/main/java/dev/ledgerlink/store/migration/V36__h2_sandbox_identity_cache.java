package dev.ledgerlink.store.migration;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * H2 only: the identity columns of V35 (the sandbox's fault rules and request journal) take ids from
 * a cache of 1,000 like every other table's (V20__h2_identity_cache says why). Nothing on PostgreSQL.
 */
public final class V36__h2_sandbox_identity_cache extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        V20__h2_identity_cache.applyTo(context.getConnection());
    }
}
