package dev.ledgerlink.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one clock every time-based rule of the service reads (token and code lifetimes, the refresh
 * replay window, leases and due times of deliveries, the disable period, retention, throttles'
 * windows): this node's clock, corrected by two offsets kept in memory, so reading it costs no query.
 *
 * <ul>
 * <li>The database's clock (PostgreSQL): nodes sharing a database compare times each of them
 * wrote: one leases a delivery until T and another decides whether T has passed; one mints a
 * token expiring at T and another checks it. Node clocks differ (NTP keeps them close, not equal,
 * and a node whose synchronisation broke drifts by minutes), so each node measures how far the
 * database's {@code clock_timestamp()} is from its own at start and every 30 s, and adds that: all
 * nodes then read one clock, the database's. Differences under {@link #NOISE} are left alone: that
 * is the precision of the measurement (a round trip), far below any rule's granularity, and a clock
 * that does not jitter back and forth with each measurement. H2 runs inside this JVM: no offset.
 * <li>The sandbox's offset (development mode only, decisions.md "Development mode"): how far the
 * developer moved the clock ahead, kept in {@code sandbox_state} so every process of the sandbox
 * (servers, the CLI) sees the same time; re-read every {@link #SANDBOX_POLL}. A production server
 * never reads it, and clears the table's development mark at start.
 * </ul>
 *
 * Listeners ({@link #onMove}) learn of a move of the sandbox clock, by this process or another: the
 * delivery engine claims at once what the move made due.
 */
public final class ServiceClock extends Clock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceClock.class);
    /** How often the offset to the database's clock is measured again. */
    public static final Duration DATABASE_POLL = Duration.ofSeconds(30);
    /** How often a development process re-reads the sandbox's offset. */
    public static final Duration SANDBOX_POLL = Duration.ofMillis(250);
    /** Offsets to the database's clock smaller than this are measurement noise: not applied. */
    public static final Duration NOISE = Duration.ofMillis(10);

    /** Whether this process honours the sandbox's offset. */
    public enum Sandbox {
        /** A production server: never reads the offset, and marks the database as not a sandbox. */
        OFF,
        /** A development-mode server: honours the offset, and marks the database as a sandbox. */
        ON,
        /** The CLI: honours the offset when a development-mode server marked the database as a sandbox. */
        FOLLOW
    }

    /** The sandbox's state as stored. */
    public record SandboxState(Duration offset, boolean development) {}

    private final Clock base;
    private final Jdbi jdbi;
    private final Database.Dialect dialect;
    private final Sandbox sandbox;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile long databaseOffsetNanos;
    private volatile long sandboxOffsetNanos;
    private volatile RepeatingTask poller;
    /** When the poller next measures the database's clock (System.nanoTime; read and written by the poller only). */
    private long nextDatabaseNanos;

    private ServiceClock(Clock base, Jdbi jdbi, Database.Dialect dialect, Sandbox sandbox) {
        this.base = base;
        this.jdbi = jdbi;
        this.dialect = dialect;
        this.sandbox = sandbox;
    }

    /**
     * The clock of a process on {@code database}, {@code base} being this node's (the system's, or a
     * test's); measured and read once before it returns, then kept up to date by a background thread
     * until closed (the database closes it before its pool).
     */
    public static ServiceClock start(Clock base, Database database, Sandbox sandbox) {
        ServiceClock clock = new ServiceClock(base, database.jdbi(), database.dialect(), sandbox);
        if (sandbox != Sandbox.FOLLOW) clock.markDevelopment(sandbox == Sandbox.ON);
        clock.measureDatabase();
        clock.readSandbox();
        clock.startPolling();
        return database.closing(clock);
    }

    @Override
    public Instant instant() {
        return base.instant().plusNanos(databaseOffsetNanos + sandboxOffsetNanos);
    }

    /** Real time, as the database's clock says: the service's time without the sandbox's offset. */
    public Instant realNow() {
        return base.instant().plusNanos(databaseOffsetNanos);
    }

    /**
     * Real time as a clock, for what compares with other machines' wall clocks rather than with the
     * service's rules (a receiver's Retry-After date).
     */
    public Clock real() {
        ServiceClock self = this;
        return new Clock() {
            @Override
            public Instant instant() {
                return self.realNow();
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
    }

    /** How far the sandbox's clock is ahead of real time (zero outside development mode). */
    public Duration sandboxOffset() {
        return Duration.ofNanos(sandboxOffsetNanos);
    }

    /** How far the database's clock is from this node's, as last measured (zero on H2 and within {@link #NOISE}). */
    public Duration databaseOffset() {
        return Duration.ofNanos(databaseOffsetNanos);
    }

    /** Whether this process honours the sandbox's offset at all. */
    public boolean sandboxed() {
        return sandbox != Sandbox.OFF;
    }

    /** Runs {@code listener} whenever the sandbox's offset changes (read from the database, or written here). */
    public void onMove(Runnable listener) {
        listeners.add(listener);
    }

    /** The stored state of the sandbox. */
    public SandboxState stored() {
        return jdbi.withHandle(h -> h.createQuery("select clock_offset_micros, development from sandbox_state where id = 1")
                .map((rs, ctx) -> new SandboxState(Duration.ofNanos(rs.getLong(1) * 1000), rs.getBoolean(2))).one());
    }

    /**
     * Stores a new offset (whole microseconds, as timestamps are stored, rounded up: a clock set to T
     * reads T, not a moment before) and applies it here at once;
     * other processes see it within {@link #SANDBOX_POLL}. Only for a clock that honours the sandbox.
     */
    public Duration storeSandboxOffset(Duration offset) {
        if (sandbox == Sandbox.OFF) throw new IllegalStateException("the sandbox clock exists in development mode only");
        long micros = Math.ceilDiv(offset.toNanos(), 1000);
        jdbi.useHandle(h -> h.createUpdate("update sandbox_state set clock_offset_micros = :micros where id = 1").bind("micros", micros).execute());
        readSandbox();
        return sandboxOffset();
    }

    /** Adds {@code by} to the stored offset in one statement (two moves at once both count) and applies the result here at once. */
    public void addToSandboxOffset(Duration by) {
        if (sandbox == Sandbox.OFF) throw new IllegalStateException("the sandbox clock exists in development mode only");
        long micros = by.toNanos() / 1000;
        jdbi.useHandle(h -> h.createUpdate("update sandbox_state set clock_offset_micros = clock_offset_micros + :micros where id = 1")
                .bind("micros", micros).execute());
        readSandbox();
    }

    /**
     * Re-reads the sandbox's offset now (a process that did not write it learns of a move at once).
     * One read at a time: a read that began before a move (the poller's) would otherwise apply the old
     * offset after the mover applied the new one, and undo the move here until the next poll.
     */
    public synchronized void readSandbox() {
        if (sandbox == Sandbox.OFF) return;
        SandboxState state = stored();
        long nanos = sandbox == Sandbox.ON || state.development() ? state.offset().toNanos() : 0;
        if (nanos == sandboxOffsetNanos) return;
        sandboxOffsetNanos = nanos;
        LOG.info("sandbox clock {} (offset {})", nanos == 0 ? "at real time" : "moved to " + instant(), Duration.ofNanos(nanos));
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                LOG.warn("a listener of the sandbox clock failed: {}", e.toString());
            }
        }
    }

    private void markDevelopment(boolean development) {
        jdbi.useHandle(h -> h.createUpdate("update sandbox_state set development = :d where id = 1 and development <> :d")
                .bind("d", development).execute());
    }

    /**
     * The database's clock minus this node's, from the quickest of three round trips (its midpoint is
     * the best guess of when the database read its clock). PostgreSQL only: H2 reads this JVM's clock.
     */
    void measureDatabase() {
        if (dialect != Database.Dialect.POSTGRESQL) return;
        long best = 0;
        long bestRoundTrip = Long.MAX_VALUE;
        Clock node = Clock.systemUTC();   // the node's own clock, not a test's: the offset corrects the machine
        for (int i = 0; i < 3; i++) {
            long[] sample = jdbi.withHandle(h -> {
                Instant before = node.instant();
                Instant db = h.createQuery("select clock_timestamp()").map((rs, ctx) -> TimeMapping.read(rs, 1)).one();
                Instant after = node.instant();
                long roundTrip = Duration.between(before, after).toNanos();
                return new long[] {Duration.between(before.plusNanos(roundTrip / 2), db).toNanos(), roundTrip};
            });
            if (sample[1] < bestRoundTrip) {
                bestRoundTrip = sample[1];
                best = sample[0];
            }
        }
        if (Math.abs(best - databaseOffsetNanos) < NOISE.toNanos()) return;   // unchanged within the noise: no jitter
        long applied = Math.abs(best) < NOISE.toNanos() ? 0 : best;
        if (applied != databaseOffsetNanos) {
            LOG.info("this node's clock is {} the database's; the service reads the database's", applied == 0 ? "within " + NOISE + " of"
                    : Duration.ofNanos(Math.abs(applied)) + (applied > 0 ? " behind" : " ahead of"));
        }
        databaseOffsetNanos = applied;
    }

    private void startPolling() {
        boolean database = dialect == Database.Dialect.POSTGRESQL;
        if (!database && sandbox == Sandbox.OFF) return;
        nextDatabaseNanos = System.nanoTime() + DATABASE_POLL.toNanos();
        poller = RepeatingTask.start("service-clock", sandbox == Sandbox.OFF ? DATABASE_POLL : SANDBOX_POLL, () -> poll(database),
                // the database is away: the last offsets stay; /readyz reports the outage
                e -> LOG.debug("service clock: cannot read the database: {}", e.toString()));
    }

    private void poll(boolean database) {
        readSandbox();
        if (database && System.nanoTime() - nextDatabaseNanos >= 0) {
            nextDatabaseNanos = System.nanoTime() + DATABASE_POLL.toNanos();
            measureDatabase();
        }
    }

    @Override
    public void close() {
        RepeatingTask t = poller;
        if (t != null) t.close();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
