package dev.ledgerlink.delivery;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.CallbackStateMachine;
import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.DeliveryFailures;
import dev.ledgerlink.callbacks.DisablePolicy;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * retry at, dropped), and each callback's outcome, reported to the callbacks
 * capability ({@link DeliveryFailures}), which may disable it: after its failure window, or at once
 * when the endpoint answers 410 Gone. What the operator must hear about (a callback disabled,
 * deliveries dropped) goes to the operator notices in the same transaction. Metrics and audit
 * lines are written once that transaction has committed: a batch that fails and is written again
 * row by row is counted once, by the writes that stuck.
 * State changes apply only while the worker still holds the lease; the attempt is recorded anyway.
 */
final class ResultRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);
    private static final int MAX_BATCH = 500;

    /** {@code request} is null when nothing was sent (the code could not be decrypted). */
    record Result(ClaimedDelivery delivery, String token, Instant at, WebhookRequest request, AttemptOutcome outcome, String dropReason) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final RetrySchedule schedule;
    private final DeliveryFailures failures;
    private final DeliveryMetrics metrics;
    private final OperatorNotices notices;
    private final AuditLog audit;
    private final LinkedBlockingQueue<Result> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    ResultRecorder(Jdbi jdbi, Clock clock, RetrySchedule schedule, DeliveryFailures failures, DeliveryMetrics metrics,
                   OperatorNotices notices, AuditLog audit) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.schedule = schedule;
        this.failures = failures;
        this.metrics = metrics;
        this.notices = notices;
        this.audit = audit;
        this.writer = Thread.ofPlatform().name("delivery-recorder").daemon().start(this::loop);
    }

    void record(ClaimedDelivery d, String token, Instant at, WebhookRequest request, AttemptOutcome outcome) {
        queue.add(new Result(d, token, at, request, outcome, null));
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

    private void write(List<Result> batch) {
        Instant now = DbTime.now(clock);
        jdbi.useTransaction(h -> {
            var attempts = h.prepareBatch(DeliveryStore.INSERT_ATTEMPT);
            var delivered = h.prepareBatch(DeliveryStore.MARK_DELIVERED);
            var retries = h.prepareBatch(DeliveryStore.SCHEDULE_RETRY);
            var dropped = h.prepareBatch(DeliveryStore.MARK_DROPPED);
            Set<Long> succeeded = new LinkedHashSet<>();
            Set<ClaimedDelivery> failedCallbacks = new LinkedHashSet<>();
            Map<Long, ClaimedDelivery> goneCallbacks = new LinkedHashMap<>();
            List<ClaimedDelivery> droppedRows = new ArrayList<>();   // in the order of the dropped batch
            Map<Long, Result> latestPerCallback = new LinkedHashMap<>();
            Drops drops = new Drops();
            Tally tally = new Tally();
            int nAttempts = 0, nDelivered = 0, nRetries = 0, nDropped = 0;
            for (Result r : batch) {
                ClaimedDelivery d = r.delivery();
                int attemptNo = d.attempts() + 1;
                if (r.outcome() == null) {
                    dropped.bind("id", d.id()).bind("token", r.token()).bind("attempts", d.attempts())
                            .bind("reason", r.dropReason()).bind("now", now).add();
                    nDropped++;
                    droppedRows.add(d);
                    continue;
                }
                AttemptOutcome o = r.outcome();
                WebhookRequest sent = r.request();
                attempts.bind("deliveryId", d.id()).bind("attempt", attemptNo).bind("attemptedAt", r.at())
                        .bind("status", o.status()).bind("durationMs", o.durationMs())
                        .bind("error", AttemptRecord.text(o.error(), AttemptRecord.MAX_ERROR))
                        .bind("requestHeaders", sent == null ? null : AttemptRecord.requestHeaders(sent.headers()))
                        .bind("requestBody", sent == null ? null : AttemptRecord.text(sent.recordedBody(), AttemptRecord.MAX_REQUEST_BODY))
                        .bind("responseHeaders", o.responseHeaders())
                        .bind("body", AttemptRecord.text(o.responseBody(), AttemptRecord.MAX_RESPONSE_BODY)).add();
                nAttempts++;
                latestPerCallback.merge(d.callbackId(), r, (was, next) -> next.at().isBefore(was.at()) ? was : next);
                if (o.success()) {
                    delivered.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo).bind("now", now).add();
                    nDelivered++;
                    succeeded.add(d.callbackId());
                    tally.delivered++;
                    continue;
                }
                tally.failed++;
                failedCallbacks.add(d);
                if (DisablePolicy.endpointGone(o.status())) {
                    dropped.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo)
                            .bind("reason", "the endpoint answered 410 Gone").bind("now", now).add();
                    nDropped++;
                    droppedRows.add(d);
                    goneCallbacks.putIfAbsent(d.callbackId(), d);
                    continue;
                }
                Optional<Duration> delay = schedule.delayAfter(attemptNo, o.retryAfter());
                if (delay.isPresent()) {
                    Instant next = now.plus(Jitter.apply(delay.get(), ThreadLocalRandom.current().nextDouble()));
                    retries.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo).bind("next", next).add();
                    nRetries++;
                } else {
                    dropped.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo)
                            .bind("reason", "no success after " + attemptNo + " attempts").bind("now", now).add();
                    nDropped++;
                    droppedRows.add(d);
                }
            }
            if (nAttempts > 0) {
                attempts.execute();
                recordLastAttempts(h, latestPerCallback.values());
            }
            if (nDelivered > 0) delivered.execute();
            if (nRetries > 0) retries.execute();
            if (nDropped > 0) {
                // Counted as the database applied them: a row another path dropped first (its
                // callback was disabled meanwhile) is not dropped, nor told, twice.
                int[] applied = dropped.execute();
                for (int i = 0; i < applied.length; i++) {
                    if (applied[i] != 0) drops.add(droppedRows.get(i), 1);
                }
            }
            recordCallbackRuns(h, now, succeeded, failedCallbacks, goneCallbacks, drops, tally);
            drops.perCallback.forEach((d, n) -> {
                tally.dropped += n;
                notices.deliveriesDropped(h, d.callbackId(), d.callbackAccountId(), d.uri(), n, now);
            });
            h.afterCommit(() -> tally.countIn(metrics));
        });
    }

    /** Each callback's latest attempt of this batch becomes its latest, unless a newer one is recorded already. */
    private static void recordLastAttempts(Handle h, Iterable<Result> latest) {
        var last = h.prepareBatch(DeliveryStore.RECORD_LAST_ATTEMPT);
        for (Result r : latest) {
            AttemptOutcome o = r.outcome();
            last.bind("callbackId", r.delivery().callbackId()).bind("deliveryId", r.delivery().id())
                    .bind("attempt", r.delivery().attempts() + 1).bind("attemptedAt", r.at()).bind("status", o.status())
                    .bind("durationMs", o.durationMs()).bind("error", AttemptRecord.text(o.error(), AttemptRecord.MAX_ERROR)).add();
        }
        last.execute();
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

    /** Reports each callback's outcome of this batch; a failure that disables it drops what was still queued for it. */
    private void recordCallbackRuns(Handle h, Instant now, Set<Long> succeeded, Set<ClaimedDelivery> failed,
                                    Map<Long, ClaimedDelivery> gone, Drops drops, Tally tally) {
        Set<Long> seen = new LinkedHashSet<>();
        for (ClaimedDelivery d : gone.values()) {
            seen.add(d.callbackId());
            State state = CallbackStateMachine.stateOf(d.verified(), d.disabled());
            failures.gone(h, d.callbackId(), state, now)
                    .ifPresent(t -> disabled(h, d, t, "endpoint_gone", "its endpoint answered 410 Gone", now, drops, tally));
        }
        for (ClaimedDelivery d : failed) {
            if (succeeded.contains(d.callbackId()) || !seen.add(d.callbackId())) continue;
            State state = CallbackStateMachine.stateOf(d.verified(), d.disabled());
            failures.failed(h, d.callbackId(), state, d.failingSince(), now)
                    .ifPresent(t -> disabled(h, d, t, "failing_too_long", "every attempt failed since " + d.failingSince(), now, drops, tally));
        }
        failures.succeeded(h, succeeded, now);
    }

    /** A callback the callbacks capability just disabled: the effects on the queue, the operator's notice, the audit line. */
    private void disabled(Handle h, ClaimedDelivery d, Transition t, String cause, String why, Instant now, Drops drops, Tally tally) {
        tally.disabled++;
        int dropped = 0;
        if (t.has(Effect.DROP_PENDING)) {
            dropped = h.createUpdate(DeliveryStore.DROP_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", d.callbackId())
                    .bind("reason", "callback disabled: " + why).bind("now", now).execute();
            drops.add(d, dropped);
        }
        notices.callbackDisabled(h, d.callbackId(), d.callbackAccountId(), d.uri(), why, now);
        audit.afterCommit(h, AuditLog.Event.CALLBACK_DISABLED, "callback_id", d.callbackId(), "account_id", d.callbackAccountId(),
                "by", "delivery_engine", "cause", cause, "deliveries_dropped", dropped, "reason", why);
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
