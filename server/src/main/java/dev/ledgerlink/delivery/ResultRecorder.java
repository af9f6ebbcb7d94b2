package dev.ledgerlink.delivery;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.DeliveryFailures;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.Named;
import dev.ledgerlink.store.PlainJdbc;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes outcomes back in batches, one transaction per batch: the attempt rows, each callback's
 * latest attempt (what the console's callback list shows), each delivery's new state (delivered,
 * retry at, dropped: what {@link RetryRule} says follows its attempt), and each callback's outcome,
 * reported to the callbacks capability ({@link DeliveryFailures}), which decides whether that
 * disables it; when an ordered callback's delivery ends, the next one of it is made due
 * ({@link DeliveryOrder}). What the operator must hear about (a callback disabled, deliveries dropped) goes to
 * the operator notices in the same transaction. Metrics and audit lines are written once that
 * transaction has committed: a batch that fails and is written again row by row is counted once, by
 * the writes that stuck. State changes apply only while the worker still holds the lease; the
 * attempt is recorded anyway.
 */
final class ResultRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);
    private static final int MAX_BATCH = 500;

    /**
     * {@code request} is null when nothing was sent (the code could not be decrypted); {@code handedBack}:
     * the attempt was cut short by a stop, and the delivery goes back to the queue due at once.
     */
    record Result(ClaimedDelivery delivery, String token, Instant at, WebhookRequest request, AttemptOutcome outcome, String dropReason,
                  boolean handedBack) {
        Result(ClaimedDelivery delivery, String token, Instant at, WebhookRequest request, AttemptOutcome outcome, String dropReason) {
            this(delivery, token, at, request, outcome, dropReason, false);
        }
    }

    private final Jdbi jdbi;
    private final Clock clock;
    private final RetryRule rule;
    private final DeliveryFailures failures;
    private final DeliveryMetrics metrics;
    private final OperatorNotices notices;
    private final AuditLog audit;
    private final Runnable nextInOrderDue;
    private final LinkedBlockingQueue<Result> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    /** {@code nextInOrderDue}: told after a commit that made an ordered callback's next delivery due (the engine claims it at once). */
    ResultRecorder(Jdbi jdbi, Clock clock, RetryRule rule, DeliveryFailures failures, DeliveryMetrics metrics,
                   OperatorNotices notices, AuditLog audit, Runnable nextInOrderDue) {
        this.nextInOrderDue = nextInOrderDue;
        this.jdbi = jdbi;
        this.clock = clock;
        this.rule = rule;
        this.failures = failures;
        this.metrics = metrics;
        this.notices = notices;
        this.audit = audit;
        this.writer = Thread.ofPlatform().name("delivery-recorder").daemon().start(this::loop);
    }

    void record(ClaimedDelivery d, String token, Instant at, WebhookRequest request, AttemptOutcome outcome) {
        queue.add(new Result(d, token, at, request, outcome, null));
    }

    /**
     * An attempt the engine stopped waiting for (shutdown.grace ran out): recorded as the attempt it
     * was (the request may have reached the receiver, so a second send is a recorded retry), and the
     * delivery handed back to the queue due at once, so another process sends it without waiting for
     * the lease to end. Not reported as a failure of the callback: the endpoint did nothing wrong.
     */
    void handBack(ClaimedDelivery d, String token, Instant at, WebhookRequest request, AttemptOutcome outcome) {
        queue.add(new Result(d, token, at, request, outcome, null, true));
    }

    /** Gives a delivery up without an attempt (its callback is no longer verified and enabled). */
    void drop(ClaimedDelivery d, String token, String reason) {
        queue.add(new Result(d, token, DbTime.now(clock), null, null, reason));
    }

    private void loop() {
        List<Result> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Result first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                writeOrSplit(batch);
                batch.clear();
            } catch (InterruptedException e) {
                running = false;
            }
        }
    }

    /**
     * One transaction per batch; if it fails, each result alone, so one bad row cannot lose the others.
     * (Called by the writer thread; ResultRecorderTest calls it with a batch of its own.)
     */
    void writeOrSplit(List<Result> batch) {
        try {
            write(batch);
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                // Not recorded: the lease expires and the delivery is tried again (at least once).
                LOG.warn("could not record the result of delivery {}: {}", batch.getFirst().delivery().id(), e.toString());
                return;
            }
            for (Result r : batch) writeOrSplit(List.of(r));
        }
    }

    /** A delivery's new state after its attempt: delivered, a retry at {@code next}, or dropped for {@code reason}. */
    private record Ended(ClaimedDelivery d, String token, int attempts, Instant next, String reason) {}

    /**
     * Sorts the batch by what {@link RetryRule} says follows each attempt, writes it all in one
     * transaction, and reports the attempts to the callbacks capability, which may disable callbacks.
     */
    private void write(List<Result> batch) {
        Instant now = DbTime.now(clock);
        jdbi.useTransaction(h -> {
            List<Result> attempts = new ArrayList<>();
            List<Ended> delivered = new ArrayList<>();
            List<Ended> retries = new ArrayList<>();
            List<Ended> dropped = new ArrayList<>();
            List<DeliveryFailures.Attempted> reports = new ArrayList<>();
            Map<Long, ClaimedDelivery> callbacks = new LinkedHashMap<>();
            Map<Long, Result> latestPerCallback = new LinkedHashMap<>();
            Drops drops = new Drops();
            Tally tally = new Tally();
            for (Result r : batch) {
                ClaimedDelivery d = r.delivery();
                if (r.outcome() == null) {
                    dropped.add(new Ended(d, r.token(), d.attempts(), null, r.dropReason()));
                    continue;
                }
                AttemptOutcome o = r.outcome();
                int attemptNo = d.attempts() + 1;
                attempts.add(r);
                if (r.handedBack()) {
                    retries.add(new Ended(d, r.token(), attemptNo, now, null));
                    continue;
                }
                latestPerCallback.merge(d.callbackId(), r, (was, next) -> next.at().isBefore(was.at()) ? was : next);
                callbacks.putIfAbsent(d.callbackId(), d);
                DeliveryFailures.Outcome reported = DeliveryFailures.Outcome.FAILED;
                switch (rule.after(attemptNo, o.status(), o.retryAfter(), now, ThreadLocalRandom.current().nextDouble())) {
                    case RetryRule.Delivered x -> {
                        delivered.add(new Ended(d, r.token(), attemptNo, null, null));
                        reported = DeliveryFailures.Outcome.SUCCEEDED;
                    }
                    case RetryRule.RetryAt retry -> retries.add(new Ended(d, r.token(), attemptNo, retry.at(), null));
                    case RetryRule.Dropped last -> dropped.add(new Ended(d, r.token(), attemptNo, null, last.reason()));
                    case RetryRule.Gone gone -> {
                        dropped.add(new Ended(d, r.token(), attemptNo, null, gone.reason()));
                        reported = DeliveryFailures.Outcome.GONE;
                    }
                }
                if (reported == DeliveryFailures.Outcome.SUCCEEDED) tally.delivered++;
                else tally.failed++;
                reports.add(new DeliveryFailures.Attempted(d.callbackId(), d.callbackState(), d.failingSince(), reported));
            }
            PlainJdbc.batch(h, DeliveryStore.INSERT_ATTEMPT, attempts, ResultRecorder::bindAttempt);
            PlainJdbc.batch(h, DeliveryStore.RECORD_LAST_ATTEMPT, latestPerCallback.values(), ResultRecorder::bindLastAttempt);
            PlainJdbc.batch(h, DeliveryStore.MARK_DELIVERED, delivered, (p, e) -> leased(p, e).set("attempts", e.attempts()).set("now", now));
            PlainJdbc.batch(h, DeliveryStore.SCHEDULE_RETRY, retries, (p, e) -> leased(p, e).set("attempts", e.attempts()).set("next", e.next()));
            // Counted as the database applied them: a row another path dropped first (its
            // callback was disabled meanwhile) is not dropped, nor told, twice.
            int[] applied = PlainJdbc.batch(h, DeliveryStore.MARK_DROPPED, dropped,
                    (p, e) -> leased(p, e).set("attempts", e.attempts()).set("reason", e.reason()).set("now", now));
            for (int i = 0; i < applied.length; i++) {
                if (applied[i] != 0) drops.add(dropped.get(i).d(), 1);
            }
            // An ordered callback's delivery that ended lets the next one of it go (DeliveryOrder).
            Set<Long> nextInOrder = new LinkedHashSet<>();
            for (List<Ended> ended : List.of(delivered, dropped)) {
                for (Ended e : ended) if (e.d().ordered() && !e.d().isVerification()) nextInOrder.add(e.d().callbackId());
            }
            if (!nextInOrder.isEmpty()) {
                DeliveryOrder.promote(h, nextInOrder, now);
                h.afterCommit(nextInOrderDue::run);
            }
            for (DeliveryFailures.Disabled off : failures.record(h, reports, now)) {
                disabled(h, callbacks.get(off.callbackId()), off, now, drops, tally);
            }
            drops.perCallback.forEach((d, n) -> {
                tally.dropped += n;
                notices.deliveriesDropped(h, d.callbackId(), d.callbackAccountId(), d.uri(), n, now);
            });
            h.afterCommit(() -> tally.countIn(metrics));
        });
    }

    /** The row and the lease a state change applies to: only while the worker still holds the lease. */
    private static Named.Params leased(Named.Params p, Ended e) throws SQLException {
        return p.set("id", e.d().id()).set("token", e.token());
    }

    private static void bindAttempt(Named.Params p, Result r) throws SQLException {
        WebhookRequest sent = r.request();
        bindAttempted(p, r)
                .set("requestHeaders", sent == null ? null : AttemptRecord.requestHeaders(sent.headers()))
                .set("requestBody", sent == null ? null : AttemptRecord.text(sent.recordedBody(), AttemptRecord.MAX_REQUEST_BODY))
                .set("responseHeaders", r.outcome().responseHeaders())
                .set("responseBody", AttemptRecord.text(r.outcome().responseBody(), AttemptRecord.MAX_RESPONSE_BODY));
    }

    /** Each callback's latest attempt of this batch becomes its latest, unless a newer one is recorded already. */
    private static void bindLastAttempt(Named.Params p, Result r) throws SQLException {
        bindAttempted(p, r).set("callbackId", r.delivery().callbackId());
    }

    /** What an attempt record and a callback's latest attempt both say of it. */
    private static Named.Params bindAttempted(Named.Params p, Result r) throws SQLException {
        AttemptOutcome o = r.outcome();
        return p.set("deliveryId", r.delivery().id()).set("attempt", r.delivery().attempts() + 1).set("attemptedAt", r.at())
                .setInteger("statusCode", o.status()).set("durationMs", o.durationMs())
                .set("error", AttemptRecord.text(o.error(), AttemptRecord.MAX_ERROR));
    }

    /** What one batch's transaction counts, added to the metrics only if it commits. */
    private static final class Tally {
        long delivered, failed, dropped, disabled;

        void countIn(DeliveryMetrics metrics) {
            if (delivered > 0) metrics.delivered.increment(delivered);
            if (failed > 0) metrics.failed.increment(failed);
            if (dropped > 0) metrics.dropped.increment(dropped);
            if (disabled > 0) metrics.disabled.increment(disabled);
        }
    }

    /** Deliveries dropped in one batch, per callback (the first delivery of a callback stands for it). */
    private static final class Drops {
        final Map<ClaimedDelivery, Integer> perCallback = new LinkedHashMap<>();
        private final Map<Long, ClaimedDelivery> standIn = new LinkedHashMap<>();

        void add(ClaimedDelivery d, int n) {
            if (n > 0) perCallback.merge(standIn.computeIfAbsent(d.callbackId(), k -> d), n, Integer::sum);
        }
    }

    /** A callback the callbacks capability just disabled (and dropped what was pending for): the operator's notice, the audit line. */
    private void disabled(Handle h, ClaimedDelivery d, DeliveryFailures.Disabled off, Instant now, Drops drops, Tally tally) {
        tally.disabled++;
        drops.add(d, off.dropped());
        notices.callbackDisabled(h, d.callbackId(), d.callbackAccountId(), d.uri(), off.why(), now);
        audit.afterCommit(h, AuditLog.Event.CALLBACK_DISABLED, "callback_id", d.callbackId(), "account_id", d.callbackAccountId(),
                "by", "delivery_engine", "cause", off.cause(), "deliveries_dropped", off.dropped(), "reason", off.why());
    }

    /** Writes what is still queued, then stops. */
    @Override
    public void close() {
        running = false;
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
