package dev.ledgerlink.bench.growth;

import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.retention.RetentionRules;
import dev.ledgerlink.retention.RetentionSweeper;
import dev.ledgerlink.store.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * One pass of the retention sweeper over a database, as a server's sweeper or {@code ledgerlink janitor}
 * runs it (the service's own RetentionSweeper and rules, its default batch size), with the cut-offs
 * chosen by the caller instead of the settings' ages: the deliveries, their attempts and events
 * finished before {@code deliveriesBefore}, the tokens and codes dead before {@code tokensBefore}.
 */
public final class RetentionPass {
    /** What a pass removed per rule, and how long it took. */
    public record Result(Map<String, Long> removed, Map<String, String> errors, double seconds) {
        public long total() {
            return removed.values().stream().mapToLong(Long::longValue).sum();
        }

        public double rowsPerSecond() {
            return total() / Math.max(seconds, 1e-6);
        }
    }

    private RetentionPass() {}

    public static Result run(BenchDatabase db, Instant deliveriesBefore, Instant tokensBefore) {
        Instant now = Instant.now();
        Duration keepDeliveries = positive(Duration.between(deliveriesBefore, now));
        Duration keepTokens = positive(Duration.between(tokensBefore, now));
        Settings s = Settings.builder().set(Setting.RETENTION_DELIVERIES, keepDeliveries.toString())
                .set(Setting.RETENTION_EVENTS, keepDeliveries.toString()).set(Setting.RETENTION_TOKENS, keepTokens.toString()).build();
        try (Database database = Database.open(db.url(), db.user(), "", 2, null)) {
            RetentionSweeper sweeper = new RetentionSweeper(database.jdbi(), database.dialect(), Clock.systemUTC(), RetentionRules.of(s),
                    s.integer(Setting.RETENTION_BATCH_SIZE), new SimpleMeterRegistry());
            long t0 = System.nanoTime();
            RetentionSweeper.Report r = sweeper.sweep(Duration.ofMinutes(2));
            return new Result(r.removed(), r.errors(), (System.nanoTime() - t0) / 1e9);
        }
    }

    private static Duration positive(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
