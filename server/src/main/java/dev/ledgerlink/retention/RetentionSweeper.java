package dev.ledgerlink.retention;

import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.Savepoints;
import dev.ledgerlink.store.WrittenOrder;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what the retention rules say has aged out, in small batches: each batch is one SELECT of
 * at most batch-size ids (in id order, after the last batch's) and one DELETE of those ids that
 * re-checks the rule, each in its own short transaction, so no lock is held for long and rows that
 * stopped being due meanwhile (a redelivered delivery) stay. One sweeper at a time across nodes
 * ({@link SweepLease}); a rule that fails is reported and the others still run.
 */
public final class RetentionSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionSweeper.class);

    /** What a pass removed (or, dry, would remove) per rule; errors per rule that failed. */
    public record Report(boolean dryRun, Instant at, Map<String, Long> removed, Map<String, String> errors) {
        public long total() {
            return removed.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Another node is sweeping right now. */
    public static final class Busy extends RuntimeException {
        Busy(String holder) {
            super("another sweeper holds the retention lease (" + holder + ")");
        }
    }

    private final Jdbi jdbi;
    private final boolean h2;
    private final Clock clock;
    private final List<RetentionRule> rules;
    private final int batchSize;
    private final RetentionMetrics metrics;
    private final SweepLease lease;

    public RetentionSweeper(Jdbi jdbi, Database.Dialect dialect, Clock clock, List<RetentionRule> rules, int batchSize, MeterRegistry registry) {
        if (batchSize < 1) throw new IllegalArgumentException("retention.batch-size must be at least 1");
        this.jdbi = jdbi;
        this.h2 = dialect == Database.Dialect.H2;
        this.clock = clock;
        this.rules = List.copyOf(rules);
        this.batchSize = batchSize;
        this.metrics = new RetentionMetrics(registry);
        this.lease = new SweepLease(jdbi, "sweeper-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /** One pass, once the lease is ours; waits up to {@code wait} for another node's pass to end. */
    public Report sweep(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!lease.take(DbTime.now(clock))) {
            if (System.nanoTime() >= deadline) {
                metrics.pass("skipped");
                throw new Busy(lease.describe());
            }
            sleep(Duration.ofMillis(250));
        }
        metrics.running.set(1);
        try {
            Report r = pass();
            metrics.pass(r.errors().isEmpty() ? "completed" : "failed");
            metrics.lastCompletedEpochSeconds.set(r.at().getEpochSecond());
            return r;
        } finally {
            metrics.running.set(0);
            lease.release();
        }
    }

    /**
     * What a pass would remove now, and nothing removed: the pass's rules run in one transaction that
     * is rolled back, so rows that become removable only once others are gone (an event after its
     * deliveries, a grant after its tokens) are counted as a pass would remove them. Needs no lease
     * (nothing is kept); holds the row locks of what it counts until the rollback.
     */
    public Report dryRun() {
        Instant now = DbTime.now(clock);
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        jdbi.useHandle(h -> {
            h.begin();
            try {
                for (RetentionRule rule : rules) {
                    // a rule that fails is undone alone, and the others are still counted
                    var attempt = Savepoints.attempt(h, "rule",
                            t -> (long) t.createUpdate(rule.deleteAllSql()).bind("cutoff", rule.cutoff(now)).execute());
                    if (attempt.failed()) errors.put(rule.name(), attempt.failure().getMessage());
                    else counts.put(rule.name(), attempt.result());
                }
            } finally {
                h.rollback();
            }
        });
        return new Report(true, now, counts, errors);
    }

    private Report pass() {
        Instant now = DbTime.now(clock);
        Map<String, Long> removed = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (RetentionRule rule : rules) {
            try {
                removed.put(rule.name(), purge(rule, rule.cutoff(now)));
            } catch (RuntimeException e) {
                // Next pass tries again; a rule that cannot run (a deadlock victim, a new foreign key)
                // must not stop the tables after it from being cleaned.
                LOG.warn("retention rule {} failed: {}", rule.name(), e.toString());
                errors.put(rule.name(), e.getMessage());
            }
        }
        long total = removed.values().stream().mapToLong(Long::longValue).sum();
        if (total > 0) LOG.info("retention sweep removed {} rows: {}", total, removed);
        return new Report(false, now, removed, errors);
    }

    private long purge(RetentionRule rule, Instant cutoff) {
        long horizon = jdbi.withHandle(h -> rule.horizon(h, cutoff.plus(WrittenOrder.OUT_OF_ORDER)));
        long after = 0;
        long removed = 0;
        while (true) {
            long from = after;
            List<Long> ids = jdbi.withHandle(h -> h.createQuery(rule.candidatesSql(h2)).bind("after", from).bind("horizon", horizon)
                    .bind("cutoff", cutoff).bind("limit", batchSize).mapTo(Long.class).list());
            if (ids.isEmpty()) return removed;
            int n = jdbi.withHandle(h -> h.createUpdate(rule.deleteSql()).bindList("ids", ids).bind("cutoff", cutoff).execute());
            removed += n;
            metrics.removed(rule.name(), n);
            lease.take(DbTime.now(clock));
            if (ids.size() < batchSize) return removed;
            after = ids.getLast();
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the retention lease", e);
        }
    }
}
