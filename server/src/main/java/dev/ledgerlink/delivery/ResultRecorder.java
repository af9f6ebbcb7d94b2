package dev.ledgerlink.delivery;

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
import dev.ledgerlink.notifications.OperatorNotices;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes outcomes back in batches, one transaction per batch: the attempt rows, each delivery's new
 * state (delivered, retry at, dropped), and the callbacks' failure runs (failing_since, disabled).
 * State changes apply only while the worker still holds the lease; the attempt is recorded anyway.
 * What the operator must hear about (a callback disabled, deliveries dropped) is written to the
 * operator notices in the same transaction.
 */
final class ResultRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);
    private static final int MAX_BATCH = 500;

    private record Result(ClaimedDelivery delivery, String token, Instant at, AttemptOutcome outcome, String dropReason) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final RetrySchedule schedule;
    private final DisablePolicy disablePolicy;
    private final DeliveryMetrics metrics;
    private final OperatorNotices notices;
    private final LinkedBlockingQueue<Result> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    ResultRecorder(Jdbi jdbi, Clock clock, RetrySchedule schedule, DisablePolicy disablePolicy, DeliveryMetrics metrics, OperatorNotices notices) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.schedule = schedule;
        this.disablePolicy = disablePolicy;
        this.metrics = metrics;
        this.notices = notices;
        this.writer = Thread.ofPlatform().name("delivery-recorder").daemon().start(this::loop);
    }

    void record(ClaimedDelivery d, String token, Instant at, AttemptOutcome outcome) {
        queue.add(new Result(d, token, at, outcome, null));
    }

    /** Gives a delivery up without an attempt (its callback is no longer verified and enabled). */
    void drop(ClaimedDelivery d, String token, String reason) {
        queue.add(new Result(d, token, DbTime.now(clock), null, reason));
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
            Map<Long, ClaimedDelivery> goneCallbacks = new LinkedHashMap<>();
            Map<ClaimedDelivery, Integer> drops = new LinkedHashMap<>();   // per callback (the first delivery of it stands for it)
            Map<Long, ClaimedDelivery> callbackOf = new LinkedHashMap<>();
            List<ClaimedDelivery> droppedRows = new ArrayList<>();   // in the order of the dropped batch
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
                attempts.bind("deliveryId", d.id()).bind("attempt", attemptNo).bind("attemptedAt", r.at())
                        .bind("status", o.status()).bind("durationMs", o.durationMs())
                        .bind("error", truncate(o.error(), 500)).bind("body", truncate(o.responseBody(), 1024)).add();
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
            if (nAttempts > 0) attempts.execute();
            if (nDelivered > 0) delivered.execute();
            if (nRetries > 0) retries.execute();
            if (nDropped > 0) {
                // Counted as the database applied them: a row another path dropped first (its
                // callback was disabled meanwhile) is not dropped, nor told, twice.
                int[] applied = dropped.execute();
                for (int i = 0; i < applied.length; i++) {
                    if (applied[i] == 0) continue;
                    metrics.dropped.increment();
                    countDrop(drops, callbackOf, droppedRows.get(i), 1);
                }
            }
            recordCallbackRuns(h, now, succeeded, failedCallbacks, goneCallbacks, drops, callbackOf);
            drops.forEach((d, n) -> notices.deliveriesDropped(h, d.callbackId(), d.callbackAccountId(), d.uri(), n, now));
        });
    }

    private static void countDrop(Map<ClaimedDelivery, Integer> drops, Map<Long, ClaimedDelivery> callbackOf, ClaimedDelivery d, int n) {
        ClaimedDelivery stand = callbackOf.computeIfAbsent(d.callbackId(), k -> d);
        drops.merge(stand, n, Integer::sum);
    }

    /** A success ends a callback's run of failures; a failure starts one or, once long enough, disables it. */
    private void recordCallbackRuns(Handle h, Instant now, Set<Long> succeeded, Set<ClaimedDelivery> failed, Map<Long, ClaimedDelivery> gone,
                                    Map<ClaimedDelivery, Integer> drops, Map<Long, ClaimedDelivery> callbackOf) {
        Set<Long> seen = new LinkedHashSet<>();
        for (ClaimedDelivery d : gone.values()) {
            seen.add(d.callbackId());
            if (h.createUpdate(DeliveryStore.DISABLE_GONE_CALLBACK).bind("id", d.callbackId()).bind("now", now).execute() > 0) {
                disabled(h, d, "the endpoint answered 410 Gone", now, drops, callbackOf);
            }
        }
        for (ClaimedDelivery d : failed) {
            if (succeeded.contains(d.callbackId()) || !seen.add(d.callbackId())) continue;
            if (d.failingSince() == null) {
                h.createUpdate(DeliveryStore.CALLBACK_FAILING).bind("id", d.callbackId()).bind("now", now).execute();
            } else if (disablePolicy.shouldDisable(d.failingSince(), now)) {
                int disabled = h.createUpdate(DeliveryStore.DISABLE_CALLBACK).bind("id", d.callbackId())
                        .bind("cutoff", disablePolicy.cutoff(now)).bind("now", now).execute();
                if (disabled > 0) disabled(h, d, "every attempt failed since " + d.failingSince(), now, drops, callbackOf);
            }
        }
        for (Long id : succeeded) {
            h.createUpdate(DeliveryStore.CALLBACK_SUCCEEDED).bind("id", id).bind("now", now).execute();
        }
    }

    /** A callback just disabled: what was pending for it is dropped, and the operator hears of both. */
    private void disabled(Handle h, ClaimedDelivery d, String why, Instant now, Map<ClaimedDelivery, Integer> drops, Map<Long, ClaimedDelivery> callbackOf) {
        int droppedCount = h.createUpdate(DeliveryStore.DROP_PENDING_EVENTS_OF_CALLBACK).bind("callbackId", d.callbackId())
                .bind("reason", "callback disabled: " + why).bind("now", now).execute();
        metrics.disabled.increment();
        metrics.dropped.increment(droppedCount);
        countDrop(drops, callbackOf, d, droppedCount);
        notices.callbackDisabled(h, d.callbackId(), d.callbackAccountId(), d.uri(), why, now);
        LOG.info("callback {} disabled: {}", d.callbackId(), why);
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
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
