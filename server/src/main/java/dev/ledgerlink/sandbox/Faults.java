package dev.ledgerlink.sandbox;

import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * The fault rules of development mode (docs/sandbox.md, "Faults"): stored in the database so that
 * every process of one sandbox applies the same rules, and kept in memory so that a request when no
 * rule exists costs nothing measurable: the rules are read again only when the version row changed,
 * and that one number is read at most every {@link #RECHECK_MS} ms (at once after a change made by
 * this process). Taking a match decrements the rule's count in the database in one statement, so
 * two processes never both take its last one.
 */
public final class Faults {
    /** How stale a process's view of rules added or cleared by another process may be. */
    public static final long RECHECK_MS = 250;

    /** What a rule may match on, asked only when a rule of the route needs it (client_id may take a token look-up). */
    public interface Request {
        String clientId();
        String grantType();
    }

    private record Snapshot(long version, List<FaultRule> active, long checkedAtNanos) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final AtomicBoolean rechecking = new AtomicBoolean();
    private static final long UNKNOWN = Long.MIN_VALUE;
    private final AtomicLong localChanges = new AtomicLong();
    private volatile Snapshot snapshot = new Snapshot(UNKNOWN, List.of(), System.nanoTime());

    public Faults(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /** Stores a rule (422 naming the fields at fault when the draft is not one). */
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
        invalidate();
        return new FaultRule(id, r.route(), r.clientId(), r.grantType(), e, r.times(), r.remaining(), r.createdAt());
    }

    /** Every rule, spent ones too (remaining 0), oldest first. */
    public List<FaultRule> list() {
        return jdbi.withExtension(FaultStore.class, FaultStore::all);
    }

    /** Removes every rule; returns how many there were. */
    public int clear() {
        int removed = jdbi.inTransaction(h -> {
            FaultStore store = h.attach(FaultStore.class);
            int n = store.deleteAll();
            store.bump();
            return n;
        });
        invalidate();
        return removed;
    }

    /**
     * The rule this request falls under, its match taken (the oldest matching rule with one left), or
     * empty. With no rule of the route in memory this reads nothing but a field.
     */
    public Optional<FaultRule> take(FaultRoute route, Request request) {
        List<FaultRule> active = active();
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

    private List<FaultRule> active() {
        Snapshot s = snapshot;
        boolean changedHere = s.version() == UNKNOWN;
        if (!changedHere && System.nanoTime() - s.checkedAtNanos() < TimeUnit.MILLISECONDS.toNanos(RECHECK_MS)) return s.active();
        boolean mine = rechecking.compareAndSet(false, true);
        if (!mine && !changedHere) return s.active();   // another request is reading the version right now
        try {
            long changes = localChanges.get();
            long version = jdbi.withExtension(FaultStore.class, FaultStore::version);
            List<FaultRule> active = version == s.version() ? s.active() : List.copyOf(jdbi.withExtension(FaultStore.class, FaultStore::active));
            // a change made by this process while we read: the next request reads again
            snapshot = new Snapshot(changes == localChanges.get() ? version : UNKNOWN, active, System.nanoTime());
            return active;
        } finally {
            if (mine) rechecking.set(false);
        }
    }

    /** After a change by this process: the next request reads the rules again, whatever the time. */
    private void invalidate() {
        localChanges.incrementAndGet();
        snapshot = new Snapshot(UNKNOWN, snapshot.active(), snapshot.checkedAtNanos());
    }

    private synchronized void forget(FaultRule spent) {
        Snapshot s = snapshot;
        List<FaultRule> left = new ArrayList<>(s.active());
        left.removeIf(r -> r.id() == spent.id());
        snapshot = new Snapshot(s.version(), List.copyOf(left), s.checkedAtNanos());
    }
}
