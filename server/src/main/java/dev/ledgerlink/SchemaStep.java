package dev.ledgerlink;

import dev.ledgerlink.config.SchemaSettings;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.PendingMigrations;
import dev.ledgerlink.store.SchemaStatus;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What serve does about the schema before it serves (db.migrate): apply this build's pending
 * migrations, naming each in /readyz as it runs; or, when the node must not migrate (the migrate step
 * runs apart, under a user allowed to change the schema), wait until nothing of this build is
 * pending, /readyz naming what it waits for, and give up after db.migrate-wait ({@link PendingMigrations},
 * exit code 4). A schema newer than this build (a later release's migrations applied) is served:
 * every migration is expand-only.
 */
final class SchemaStep {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaStep.class);
    /** How often a waiting node reads the migration history again. */
    static final Duration POLL = Duration.ofSeconds(2);
    /** How often a waiting node says again in its log what it waits for. */
    private static final Duration REMIND = Duration.ofMinutes(1);

    private SchemaStep() {}

    static SchemaStatus run(Database db, SchemaSettings settings, Readiness readiness) throws InterruptedException {
        SchemaStatus status = settings.migrateAtStart() ? migrate(db, readiness) : await(db, settings.migrateWait(), readiness);
        LOG.info("{}{}", status.describe(), settings.migrateAtStart() ? "" : "; this node applies no migration (db.migrate=never)");
        return status;
    }

    private static SchemaStatus migrate(Database db, Readiness readiness) {
        readiness.hold("reading the schema's migration history");
        return db.migrate(null, step -> {
            readiness.hold(step);
            LOG.info("{} (db.migrate=at-start)", step);
        });
    }

    private static SchemaStatus await(Database db, Duration wait, Readiness readiness) throws InterruptedException {
        long started = System.nanoTime();
        long lastSaid = Long.MIN_VALUE;
        while (true) {
            SchemaStatus status = db.schemaStatus();
            if (status.canServe()) return status;
            String waiting = "waiting for migrations to be applied by `ledgerlink db migrate` (db.migrate=never): "
                    + SchemaStatus.names(status.pending());
            readiness.hold(waiting);
            long elapsed = System.nanoTime() - started;
            if (elapsed >= wait.toNanos()) throw new PendingMigrations(status.pending(), wait);
            if (lastSaid == Long.MIN_VALUE || System.nanoTime() - lastSaid >= REMIND.toNanos()) {
                LOG.warn("{}; giving up in {} s (db.migrate-wait)", waiting, wait.minusNanos(elapsed).toSeconds());
                lastSaid = System.nanoTime();
            }
            Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, wait.minusNanos(elapsed).toMillis())));
        }
    }
}
