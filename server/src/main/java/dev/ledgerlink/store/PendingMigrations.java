package dev.ledgerlink.store;

import java.time.Duration;
import java.util.List;

/**
 * A node that must not migrate (db.migrate=never) waited db.migrate-wait for the migrate step, and
 * this build's migrations are still not applied, or a command found them missing: exit code 4, naming them.
 */
public final class PendingMigrations extends RuntimeException {
    public PendingMigrations(List<SchemaStatus.Migration> pending, Duration waited) {
        super("the database lacks this build's migrations " + SchemaStatus.names(pending) + " and db.migrate=never, so this node does not "
                + "apply them; waited " + waited + " (db.migrate-wait) for them to be applied by `ledgerlink db migrate` (docs/operations.md, "
                + "\"Upgrading\")", null, false, false);
    }

    /** A command (not serve) on a database that lacks this build's migrations, with db.migrate=never: it waits for nothing. */
    public PendingMigrations(List<SchemaStatus.Migration> pending) {
        super("the database lacks this build's migrations " + SchemaStatus.names(pending) + " and db.migrate=never: run `ledgerlink db "
                + "migrate` (as the user allowed to change the schema) first (docs/operations.md, \"Upgrading\")", null, false, false);
    }
}
