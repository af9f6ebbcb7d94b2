package dev.ledgerlink.sandbox;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.RepeatingTask;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault rules of development mode (docs/sandbox.md, "Faults"): stored in the database so that
 * every process of one sandbox applies the same rules, and kept in memory so that a request reads
 * nothing from the database to learn them. A reader thread ({@link #start}) reads the version row
 * every {@link #RECHECK_MS} ms, and the rules again only when it changed; a change made by this
 * process is read back at once by the call that made it. Taking a match decrements the rule's count
 * in the database in one statement, so two processes never both take its last one.
 *
 * <p>Why not on the request's path: with the database unreachable, every statement waits for a pool
 * connection (DeliverySettings.CONNECTION_WAIT) before it fails, so a request that re-read the rules
 * waited that long before its own route waited again for the same answer, the documented 503
 * (DatabaseOutageTest). Now only a request that matches a rule touches the database for it.
 */
public final class Faults implements AutoCloseable {
    /** How often a server reads the version row: how stale its view of rules added or cleared by another process may be. */
    public static final long RECHECK_MS = 250;
    private static final Logger LOG = LoggerFactory.getLogger(Faults.class);

    /** What a rule may match on, asked only when a rule of the route needs it (client_id may take a token look-up). */
    public interface Request {
        String clientId();
        String grantType();
    }

    /** The rules with matches left as of {@code version} of the version row. */
    private record Snapshot(long version, List<FaultRule> active) {}

    private final Jdbi jdbi;
    private final Clock clock;
    /** Replaced whole (by {@link #install} and {@link #forget}, one at a time); read by requests without a lock. */
    private volatile Snapshot snapshot = new Snapshot(Long.MIN_VALUE, List.of());
    private volatile RepeatingTask reader;

    public Faults(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /**
     * Reads the rules now and starts the thread that keeps reading them (a server in development mode;
     * the CLI only adds, lists and clears). A database away at start leaves no rule in force until it returns.
     */
    public Faults start() {
        readQuietly();
        // the database away: the rules last read stay in force; /readyz reports the outage
        reader = RepeatingTask.start("sandbox-faults", Duration.ofMillis(RECHECK_MS), this::read,
                e -> LOG.debug("sandbox faults: cannot read the rules (will retry): {}", e.toString()));
        return this;
    }

    /** Stores a rule (422 naming the fields at fault when the draft is not one); this process's next request sees it. */
    public FaultRule add(FaultRule.Draft draft) {
        FaultRule r = FaultRule.validate(draft, DbTime.now(clock));
        var e = r.effect();
        long id = jdbi.inTransaction(h -> {
            FaultStore store = h.attach(FaultStore.class);
            long newId = store.insert(r.route().wireName(), r.clientId(), r.grantType(), e.status(), e.retryAfter(), e.error(), e.latencyMs(),
                    r.times(), r.createdAt());
            store.bump();
            return newId;
        });
        readQuietly();
        return new FaultRule(id, r.route(), r.clientId(), r.grantType(), e, r.times(), r.remaining(), r.createdAt());
    }

    /** Every rule, spent ones too (remaining 0), oldest first. */
    public List<FaultRule> list() {
        return jdbi.withExtension(FaultStore.class, FaultStore::all);
    }

    /** Removes every rule; returns how many there were. This process's next request sees none. */
    public int clear() {
        int removed = jdbi.inTransaction(h -> {
            FaultStore store = h.attach(FaultStore.class);
            int n = store.deleteAll();
            store.bump();
            return n;
        });
        readQuietly();
        return removed;
    }

    /**
     * The rule this request falls under, its match taken (the oldest matching rule with one left), or
     * empty. Reads the rules in memory; only a matching rule costs a statement (taking its match).
     */
    public Optional<FaultRule> take(FaultRoute route, Request request) {
        List<FaultRule> active = snapshot.active();
        if (active.isEmpty()) return Optional.empty();
        String clientId = null;
        String grantType = null;
        boolean askedClient = false;
        boolean askedGrant = false;
        for (FaultRule rule : active) {
            if (rule.route() != route) continue;
            if (rule.clientId() != null && !askedClient) {
                clientId = request.clientId();
                askedClient = true;
            }
            if (rule.grantType() != null && !askedGrant) {
                grantType = request.grantType();
                askedGrant = true;
            }
            if (!rule.matches(route, clientId, grantType)) continue;
            if (jdbi.withExtension(FaultStore.class, s -> s.take(rule.id())) == 1) return Optional.of(rule);
            forget(rule);   // spent, by this process or another: no further statement for it
        }
        return Optional.empty();
    }

    /** The version row, then the rules when it moved. */
    private void read() {
        long version = jdbi.withExtension(FaultStore.class, FaultStore::version);
        if (version == snapshot.version()) return;
        install(version, List.copyOf(jdbi.withExtension(FaultStore.class, FaultStore::active)));
    }

    /** After a change here, or at start: a failure leaves the rules last read, and the reader tries again. */
    private void readQuietly() {
        try {
            read();
        } catch (RuntimeException e) {
            LOG.debug("sandbox faults: cannot read the rules now: {}", e.toString());
        }
    }

    /**
     * A read older than the one in place is dropped: the reader thread's read that began before a change
     * made here would otherwise put back the rules from before it until the next change. (The version
     * row only grows: every add, clear and reset bumps it.)
     */
    private synchronized void install(long version, List<FaultRule> active) {
        if (version >= snapshot.version()) snapshot = new Snapshot(version, active);
    }

    private synchronized void forget(FaultRule spent) {
        Snapshot s = snapshot;
        List<FaultRule> left = new ArrayList<>(s.active());
        left.removeIf(r -> r.id() == spent.id());
        snapshot = new Snapshot(s.version(), List.copyOf(left));
    }

    @Override
    public void close() {
        RepeatingTask t = reader;
        if (t != null) t.close();
    }
}
