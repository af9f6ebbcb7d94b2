package dev.ledgerlink.delivery;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.DeliveryFailures;
import dev.ledgerlink.callbacks.EventReceivers;
import dev.ledgerlink.callbacks.RekeyingLapses;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.ServiceClock;
import dev.ledgerlink.tracing.AttemptSpan;
import dev.ledgerlink.tracing.Tracing;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker of one process: a dispatcher thread claims due deliveries in batches (leases), each is
 * sent on its own virtual thread, and a recorder writes outcomes back in batches. No transaction or
 * lock is held across an HTTP call: claiming commits the lease first, recording happens after. The
 * queue service reaches it only through the port it implements, {@link HandOff}; its statements are
 * {@link DeliveryStore}'s.
 *
 * <p>Fairness: at most {@code concurrency} attempts in flight, and at most
 * {@code perCallbackConcurrency} of them (and never over a quarter) for one callback; a saturated callback is left out of the next claim, so a slow or dead endpoint only ever
 * ties up its own share.
 */
public final class DeliveryEngine implements HandOff, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryEngine.class);
    private static final int MAX_BATCH = 256;
    /** How long a stop waits, after the grace, for the attempts it interrupted to end (they record nothing then). */
    private static final Duration INTERRUPTED_WAIT = Duration.ofSeconds(5);
    private static final long DEPTH_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How often the dispatcher ends the re-keyings that lapsed (their held deliveries dropped). */
    private static final long LAPSE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** A delivery whose code is sealed with a key this node lacks is offered to the other nodes this long before this one claims it again. */
    private static final Duration KEY_NOT_HELD_DELAY = Duration.ofSeconds(5);

    private final Jdbi jdbi;
    private final Database.Dialect dialect;
    private final Clock clock;
    private final KeyRing keys;
    /** Fingerprints of keys this node lacks that it met in a claim (logged once each). */
    private final Set<String> keysNotHeld = ConcurrentHashMap.newKeySet();
    private final Duration lease;
    private final Duration pollInterval;
    private final int perCallbackLimit;
    private final String userAgent;
    private final Tracing tracing;
    private final DeliveryMetrics metrics;
    private final DeliverySender sender;
    private final ResultRecorder recorder;
    private final DispatcherWatchdog watchdog;
    private final DeliveryPace pace;
    private final RekeyingLapses lapses;
    private final OperatorNotices notices;
    private final DeliveryHooks hooks;
    private final ExecutorService sends = Executors.newVirtualThreadPerTaskExecutor();
    private final Semaphore slots;
    private final Semaphore wakeups = new Semaphore(0);
    /**
     * Whether rows may be due that this engine left in the queue (no slot or callback share for them)
     * since its last claim pass began: only then does a finished send wake the dispatcher. Without it,
     * every finished send ran a claim statement that found nothing, hundreds a second under load,
     * since a publish hands its rows straight to the engine.
     */
    private volatile boolean leftWork;
    private final Map<Long, AtomicInteger> inFlightPerCallback = new ConcurrentHashMap<>();
    /** Attempts started and not yet settled: a stop hands back those still here when its grace ends. */
    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();
    private final Duration shutdownGrace;
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Attempts in flight when claiming stopped (-1 until it has): what a stop reports as finished or handed back. */
    private volatile int inFlightWhenClaimingStopped = -1;
    private final String processId = UUID.randomUUID().toString().substring(0, 8);
    private final Thread dispatcher;
    private volatile boolean running;
    private long lastDepthRefresh = System.nanoTime() - DEPTH_REFRESH_NANOS;
    /** When the queue depth may be counted next, and whether a count is under way (QueueDepth). */
    private volatile long nextDepthCount = System.nanoTime();
    private final java.util.concurrent.atomic.AtomicBoolean depthCounting = new java.util.concurrent.atomic.AtomicBoolean();
    private long lastLapseCheck = System.nanoTime() - LAPSE_CHECK_NANOS;

    public DeliveryEngine(Config config, Database database, ServiceClock clock, KeyRing keys, io.micrometer.core.instrument.MeterRegistry registry,
                          OperatorNotices notices, AuditLog audit) {
        this.jdbi = database.jdbi();
        this.dialect = database.dialect();
        this.clock = clock;
        this.keys = keys;
        this.lease = config.lease();
        this.pollInterval = config.pollInterval();
        this.shutdownGrace = config.shutdownGrace();
        // A hanging endpoint holds each of its attempts for the whole timeout: capping what one
        // callback may hold (the setting, and never more than a quarter of all slots) keeps the rest
        // of the slots for healthy endpoints, however many endpoints hang.
        this.perCallbackLimit = Math.max(1, Math.min(config.perCallbackConcurrency(), config.concurrency() / 4));
        this.userAgent = config.userAgent();
        this.tracing = config.tracing();
        this.metrics = new DeliveryMetrics(registry);
        this.slots = new Semaphore(config.concurrency());
        // A receiver's Retry-After date is on its wall clock: compared with real time, not the sandbox's.
        this.sender = new DeliverySender(config.timeout(), config.concurrency(), config.addressGate(), clock.real());
        this.recorder = new ResultRecorder(jdbi, clock, config.retryRule(), config.failures(), metrics, notices, audit, this::wake);
        this.watchdog = new DispatcherWatchdog(config.lease().plus(config.stallMargin()), registry);
        this.pace = new DeliveryPace(config.rateLimit(), metrics.paced);
        this.lapses = config.lapses();
        this.notices = notices;
        this.hooks = config.hooks();
        this.dispatcher = Thread.ofPlatform().name("delivery-dispatcher").daemon().unstarted(this::dispatchLoop);
    }

    /** Starts claiming; until then nothing is claimed and publishes queue their deliveries unleased. */
    public void start() {
        running = true;
        dispatcher.start();
    }

    /**
     * What the engine is told by the settings; {@code rateLimit}: delivery.rate-limit, null for none;
     * {@code hooks}: {@link DeliveryHooks#NONE} but in development mode.
     */
    public record Config(RetryRule retryRule, DeliveryFailures failures, RekeyingLapses lapses, Duration timeout, Duration lease, Duration stallMargin,
                         Duration pollInterval, int concurrency, int perCallbackConcurrency, PublicAddressGate addressGate, String userAgent,
                         Duration shutdownGrace, Integer rateLimit, Tracing tracing, DeliveryHooks hooks) {}

    /**
     * One attempt on its way, settled exactly once: by its own thread when the answer (or the failure)
     * comes, or by {@link #stop} when the grace ends first; whoever settles it records it.
     */
    private static final class InFlight {
        final ClaimedDelivery delivery;
        final String token;
        final Instant at;
        volatile WebhookRequest request;
        private final AtomicBoolean settled = new AtomicBoolean();

        InFlight(ClaimedDelivery delivery, String token, Instant at) {
            this.delivery = delivery;
            this.token = token;
            this.at = at;
        }

        boolean settle() {
            return settled.compareAndSet(false, true);
        }
    }

    /** How long the dispatcher has been stuck in one claim pass, when it is (DispatcherWatchdog). */
    @Override
    public Optional<Duration> stalled() {
        return watchdog.stalled();
    }

    @Override
    public void wake() {
        leftWork = true;
        wakeups.release();
    }

    private void dispatchLoop() {
        while (running) {
            try {
                int claimed = 0;
                int free = slots.availablePermits();
                int wanted = Math.min(free, MAX_BATCH);
                if (free == 0) {
                    leftWork = true;   // whatever woke the dispatcher waits for a slot
                } else {
                    leftWork = false;  // before the claim: work left after its statement sets it again
                    watchdog.passStarted();
                    try {
                        claimed = claimAndStart(wanted);
                        if (claimed == wanted) leftWork = true;
                    } finally {
                        watchdog.passEnded();
                    }
                }
                refreshQueueDepth();
                endLapsedRekeyings();
                // A full batch means more is probably due: go again at once. Otherwise wait for a
                // local publish, a freed slot while work was left in the queue, or the poll interval
                // (retries falling due, work of other processes).
                if (claimed < wanted || free == 0) {
                    wakeups.tryAcquire(pollInterval.toNanos(), TimeUnit.NANOSECONDS);
                    wakeups.drainPermits();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) return;
                LOG.warn("delivery dispatcher: {} (claiming again in {})", e.toString(), pollInterval);
                sleepQuietly(pollInterval);
            }
        }
    }

    /** A lease of this engine: a token of its own, until the lease's length from {@code now}. */
    private Lease newLease(Instant now) {
        return new Lease(processId + "-" + UUID.randomUUID(), now.plus(lease));
    }

    /** A lease when this engine is running and has a free slot now. */
    @Override
    public Optional<Lease> leaseForPublish(Instant now) {
        if (!running || slots.availablePermits() == 0) return Optional.empty();
        return Optional.of(newLease(now));
    }

    @Override
    public void send(Lease lease, List<ClaimedDelivery> published) {
        metrics.handedOff.increment(published.size());
        try {
            startAll(published, lease.token(), DbTime.now(clock));
        } catch (RuntimeException e) {
            // The publish has committed and must be answered as such. Rows neither started nor given
            // back stay leased to this engine and are claimed again when the lease ends.
            LOG.warn("deliveries of a publish not handed back to the queue (claimed again when their lease ends, {}): {}", lease.until(), e.toString());
        }
    }

    private int claimAndStart(int limit) {
        Instant now = DbTime.now(clock);
        Lease lease = newLease(now);
        List<Long> busy = new ArrayList<>();
        inFlightPerCallback.forEach((id, n) -> { if (n.get() >= perCallbackLimit) busy.add(id); });
        // A callback at its share is left out of the claim: its due rows wait for one of its sends to finish.
        if (!busy.isEmpty()) leftWork = true;
        metrics.claimPasses.increment();
        List<ClaimedDelivery> claimed = jdbi.withHandle(h -> hooks.claimed(h, DeliveryStore.claim(h, dialect, lease.token(), lease.until(), now, limit, busy)));
        if (claimed.isEmpty()) return 0;
        metrics.claimed.increment(claimed.size());
        startAll(claimed, lease.token(), now);
        return claimed.size();
    }

    /**
     * Starts an attempt for each leased row there is room for (a free slot, and its callback under its
     * own limit); the others go back to the queue, due now, for the next claim. A handed-off publish
     * may have taken slots since a claim counted them, so nothing here waits for a slot.
     */
    private void startAll(List<ClaimedDelivery> claimed, String token, Instant now) {
        // Paced callbacks' deliveries beyond their budget go back to the queue, due at their turn (DeliveryPace).
        List<ClaimedDelivery> leased = pace.admit(jdbi, claimed, token, now, this::room);
        Map<Long, String> codes = new HashMap<>();   // a code is opened once per callback per batch
        List<Long> giveBack = new ArrayList<>();
        Map<Long, Instant> forAnotherNode = new HashMap<>();
        List<Long> hold = new ArrayList<>();
        for (ClaimedDelivery d : leased) {
            AtomicInteger n = inFlightPerCallback.computeIfAbsent(d.callbackId(), k -> new AtomicInteger());
            if (!running || n.get() >= perCallbackLimit) {
                giveBack.add(d.id());
                continue;
            }
            if (!d.isVerification() && !EventReceivers.sendsNow(d.callbackState())) {
                // Re-keying: it waits for the new code (redelivered meanwhile, or claimed as the resend committed).
                if (EventReceivers.receives(d.callbackState())) hold.add(d.id());
                else recorder.drop(d, token, "callback no longer verified and enabled");
                continue;
            }
            String code;
            try {
                code = codes.computeIfAbsent(d.callbackId(), k -> keys.open(d.verifierSealed(), d.verifierKey()));
            } catch (KeyRing.KeyNotHeld newer) {
                // Sealed by a node that already has a newer key (a rotation's rolling restart): a node holding it sends this.
                forAnotherNode.put(d.id(), now.plus(KEY_NOT_HELD_DELAY));
                if (keysNotHeld.add(newer.keyId())) {
                    LOG.warn("callback {}'s code is sealed with the key {}, which this node does not hold: its deliveries are left to nodes "
                            + "that do (retried here every {} s); give every node that key (docs/operations.md, \"Keys\")",
                            d.callbackId(), newer.keyId(), KEY_NOT_HELD_DELAY.toSeconds());
                }
                continue;
            } catch (IllegalStateException e) {
                recorder.record(d, token, now, null, AttemptOutcome.noResponse(0, "verification code cannot be opened with this node's secrets keys"));
                continue;
            }
            if (!slots.tryAcquire()) {
                giveBack.add(d.id());
                continue;
            }
            n.incrementAndGet();
            InFlight f = new InFlight(d, token, DbTime.now(clock));
            inFlight.add(f);   // before it runs: a stop sees every attempt it may have to hand back
            try {
                sends.execute(() -> attempt(f, code));
            } catch (RejectedExecutionException stopping) {
                inFlight.remove(f);
                n.decrementAndGet();
                slots.release();
                giveBack.add(d.id());
            }
        }
        if (!hold.isEmpty()) jdbi.useHandle(h -> DeliveryStore.hold(h, hold, token));
        if (!forAnotherNode.isEmpty()) jdbi.useHandle(h -> DeliveryStore.defer(h, forAnotherNode, token));
        if (!giveBack.isEmpty()) {
            jdbi.useHandle(h -> DeliveryStore.release(h, giveBack, token, now));
            leftWork = true;
            wakeups.release();
        }
    }

    /** How many more attempts to this callback this engine may start now. */
    private int room(long callbackId) {
        AtomicInteger n = inFlightPerCallback.get(callbackId);
        return running ? perCallbackLimit - (n == null ? 0 : n.get()) : 0;
    }

    /** One attempt, in a span that continues the trace its event kept (Tracing#attempt); the request carries its traceparent. */
    private void attempt(InFlight f, String code) {
        ClaimedDelivery d = f.delivery;
        AttemptSpan trace = null;
        AttemptOutcome outcome = null;
        try {
            trace = tracing.attempt(d.trace(), d.id(), d.callbackId(), d.eventId(), d.attempts() + 1);
            f.request = WebhookRequest.build(d, code, f.at.getEpochSecond(), userAgent, trace.headers());
            outcome = send(d, f.request);
            metrics.attempt.record(Duration.ofMillis(outcome.durationMs()));
            if (d.variant().answered()) wake();
            if (f.settle()) recorder.record(d, f.token, f.at, f.request, outcome);
        } catch (RuntimeException e) {
            AttemptOutcome failed = AttemptOutcome.noResponse(0, "internal error: " + e.getClass().getSimpleName());
            if (outcome == null) outcome = failed;
            if (f.settle()) recorder.record(d, f.token, f.at, f.request, failed);
        } finally {
            if (trace != null && outcome != null) trace.ended(outcome.status(), outcome.durationMs(), outcome.error());
            inFlight.remove(f);
            inFlightPerCallback.get(d.callbackId()).decrementAndGet();
            slots.release();
            if (leftWork && slots.availablePermits() >= perCallbackLimit) wakeups.release();
        }
    }

    /**
     * One attempt's request: sent once, or as many times as its variant says, one after the other
     * (DeliveryHooks.Variant#copies); the attempt is the first copy that failed, else the last.
     */
    private AttemptOutcome send(ClaimedDelivery d, WebhookRequest request) {
        int copies = d.variant().copies();
        AttemptOutcome outcome = sender.send(d.uri(), request);
        for (int i = 1; i < copies && outcome.error() == null; i++) outcome = sender.send(d.uri(), request);
        return outcome;
    }

    /**
     * Every five seconds: the re-keyings that lapsed end ({@link RekeyingLapses}), their held
     * deliveries dropped, and the operator told in the same transaction. Every process runs it; the
     * callbacks' statements make sure each lapse is acted on once. Then held rows that raced their
     * callback's verification, disabling or lapse are settled (DeliveryStore.RELEASE_HELD_OF_SENDING).
     */
    private void endLapsedRekeyings() {
        long nanos = System.nanoTime();
        if (nanos - lastLapseCheck < LAPSE_CHECK_NANOS) return;
        lastLapseCheck = nanos;
        Instant now = DbTime.now(clock);
        List<RekeyingLapses.Lapsed> ended = jdbi.inTransaction(h -> {
            List<RekeyingLapses.Lapsed> l = lapses.lapse(h, now);
            for (RekeyingLapses.Lapsed x : l) notices.deliveriesDropped(h, x.callbackId(), x.accountId(), x.uri(), x.dropped(), now);
            return l;
        });
        int released = jdbi.withHandle(h -> {
            h.createUpdate(DeliveryStore.DROP_HELD_OF_NOT_RECEIVING).bind("reason", "callback no longer verified and enabled").bind("now", now).execute();
            return h.createUpdate(DeliveryStore.RELEASE_HELD_OF_SENDING).bind("now", now).execute();
        });
        if (released > 0) wake();
        for (RekeyingLapses.Lapsed x : ended) {
            if (x.dropped() > 0) metrics.dropped.increment(x.dropped());
            LOG.info("callback {}: its resent verification code was not verified in time; {} held deliveries dropped", x.callbackId(), x.dropped());
        }
    }

    /**
     * Every five seconds at most: the sweep of the ordered callbacks whose next delivery a race left
     * waiting with nothing before it (DeliveryOrder), and the queue depth gauge, counted in the database
     * off the dispatcher's thread. Counting a backlog of a million pending deliveries takes a good part
     * of a second (docs/sizing.md), which the claims must not wait for, so a count that took long is
     * taken less often: never more than a fiftieth of the time.
     */
    private void refreshQueueDepth() {
        long now = System.nanoTime();
        if (now - lastDepthRefresh < DEPTH_REFRESH_NANOS) return;
        lastDepthRefresh = now;
        jdbi.useHandle(h -> DeliveryOrder.sweep(h, DbTime.now(clock)));
        if (now - nextDepthCount < 0 || !depthCounting.compareAndSet(false, true)) return;
        Thread.ofVirtual().name("delivery-queue-depth").start(() -> {
            long started = System.nanoTime();
            try {
                metrics.queueDepth.set(jdbi.withHandle(h -> h.createQuery(DeliveryStore.QUEUE_DEPTH).mapTo(Long.class).one()));
            } catch (RuntimeException e) {
                LOG.debug("queue depth not counted: {}", e.toString());
            } finally {
                long took = System.nanoTime() - started;
                nextDepthCount = System.nanoTime() + Math.max(DEPTH_REFRESH_NANOS, 50 * took);
                depthCounting.set(false);
            }
        });
    }

    private static void sleepQuietly(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a stop came to: attempts in flight when it began that finished within the grace, and those handed back. */
    public record Stopped(int finished, int handedBack) {}

    /** Stops as {@link #stop} does, with the grace of the settings (shutdown.grace). */
    @Override
    public void close() {
        stop(shutdownGrace);
    }

    /**
     * The first step of a stop: no claim, no publish hand-off from now on (what is published meanwhile
     * is queued unleased, for any process); attempts in flight go on. Returns how many are in flight.
     */
    public synchronized int stopClaiming() {
        if (inFlightWhenClaimingStopped >= 0) return inFlightWhenClaimingStopped;
        running = false;
        dispatcher.interrupt();
        try {
            dispatcher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        inFlightWhenClaimingStopped = inFlight.size();
        return inFlightWhenClaimingStopped;
    }

    /**
     * Stops: no new claim or hand-off ({@link #stopClaiming}), then the attempts in flight get
     * {@code grace} to finish and are recorded as usual; each still waiting for its answer after it is
     * recorded as cut short and handed back to the queue due at once ({@link ResultRecorder#handBack}),
     * for another process to send without waiting for its lease to end. Then the recorder writes what it
     * holds. Only a process that dies without stopping leaves rows leased until their lease ends.
     */
    public Stopped stop(Duration grace) {
        if (!stopping.compareAndSet(false, true)) return new Stopped(0, 0);   // stopped before
        int atStart = stopClaiming();
        sends.shutdown();
        boolean allDone = false;
        try {
            allDone = sends.awaitTermination(Math.max(0, grace.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int handedBack = 0;
        if (!allDone) {
            for (InFlight f : inFlight) {
                if (!f.settle()) continue;   // its answer came just now: its own thread records it
                long ms = Duration.between(f.at, DbTime.now(clock)).toMillis();
                recorder.handBack(f.delivery, f.token, f.at, f.request, AttemptOutcome.noResponse(Math.max(0, ms),
                        "cut short: the server stopped before the answer came (shutdown.grace); handed back to the queue"));
                handedBack++;
            }
            sends.shutdownNow();   // interrupts the sends: their connections close; they record nothing
            try {
                sends.awaitTermination(INTERRUPTED_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        recorder.close();
        sender.close();
        watchdog.close();
        return new Stopped(Math.max(0, atStart - handedBack), handedBack);
    }
}
