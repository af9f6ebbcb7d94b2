package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.CallbackStateMachine;
import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.DeliveryFailures;
import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * Writes outcomes back in batches, one transaction per batch: the attempt rows, each delivery's new
 * state (delivered, retry at, dropped), and each callback's outcome, reported to the callbacks
 * capability ({@link DeliveryFailures}), which may disable it.
 * State changes apply only while the worker still holds the lease; the attempt is recorded anyway.
 */
final class ResultRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);
    private static final int MAX_BATCH = 500;

    /** {@code request} is null when nothing was sent (the code could not be decrypted). */
    private record Result(ClaimedDelivery delivery, String token, Instant at, WebhookRequest request, AttemptOutcome outcome, String dropReason) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final RetrySchedule schedule;
    private final DeliveryFailures failures;
    private final DeliveryMetrics metrics;
    private final LinkedBlockingQueue<Result> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    ResultRecorder(Jdbi jdbi, Clock clock, RetrySchedule schedule, DeliveryFailures failures, DeliveryMetrics metrics) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.schedule = schedule;
        this.failures = failures;
        this.metrics = metrics;
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

    /** One transaction per batch; if it fails, each result alone, so one bad row cannot lose the others. */
    private void writeOrSplit(List<Result> batch) {
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
            int nAttempts = 0, nDelivered = 0, nRetries = 0, nDropped = 0;
            for (Result r : batch) {
                ClaimedDelivery d = r.delivery();
                int attemptNo = d.attempts() + 1;
                if (r.outcome() == null) {
                    dropped.bind("id", d.id()).bind("token", r.token()).bind("attempts", d.attempts())
                            .bind("reason", r.dropReason()).bind("now", now).add();
                    nDropped++;
                    metrics.dropped.increment();
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
                if (o.success()) {
                    delivered.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo).bind("now", now).add();
                    nDelivered++;
                    succeeded.add(d.callbackId());
                    metrics.delivered.increment();
                    continue;
                }
                metrics.failed.increment();
                failedCallbacks.add(d);
                Optional<Duration> delay = schedule.delayAfter(attemptNo, o.retryAfter());
                if (delay.isPresent()) {
                    Instant next = now.plus(Jitter.apply(delay.get(), ThreadLocalRandom.current().nextDouble()));
                    retries.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo).bind("next", next).add();
                    nRetries++;
                } else {
                    dropped.bind("id", d.id()).bind("token", r.token()).bind("attempts", attemptNo)
                            .bind("reason", "no success after " + attemptNo + " attempts").bind("now", now).add();
                    nDropped++;
                    metrics.dropped.increment();
                }
            }
            if (nAttempts > 0) attempts.execute();
            if (nDelivered > 0) delivered.execute();
            if (nRetries > 0) retries.execute();
            if (nDropped > 0) dropped.execute();
            recordCallbackRuns(h, now, succeeded, failedCallbacks);
        });
    }

    /** Reports each callback's outcome of this batch; a failure that disables it drops what was still queued for it. */
    private void recordCallbackRuns(Handle h, Instant now, Set<Long> succeeded, Set<ClaimedDelivery> failed) {
        Set<Long> seen = new LinkedHashSet<>();
        for (ClaimedDelivery d : failed) {
            if (succeeded.contains(d.callbackId()) || !seen.add(d.callbackId())) continue;
            State state = CallbackStateMachine.stateOf(d.verified(), d.disabled());
            Optional<Transition> disabled = failures.failed(h, d.callbackId(), state, d.failingSince(), now);
            if (disabled.isEmpty()) continue;
            metrics.disabled.increment();
            if (disabled.get().has(Effect.DROP_PENDING)) {
                int droppedCount = h.createUpdate(DeliveryStore.DROP_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", d.callbackId())
                        .bind("reason", "callback disabled after failing since " + d.failingSince()).bind("now", now).execute();
                metrics.dropped.increment(droppedCount);
            }
        }
        for (Long id : succeeded) failures.succeeded(h, id, now);
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
