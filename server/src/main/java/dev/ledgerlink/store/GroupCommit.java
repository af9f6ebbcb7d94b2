package dev.ledgerlink.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Group commit: short transactions submitted at the same moment by different requests share one
 * commit, so the database makes one commit durable for the group (H2 writes one chunk, PostgreSQL
 * flushes its WAL once) instead of one per request. With durable commits that flush is the cost of
 * a small write transaction; under concurrent load it is paid once per group.
 *
 * <p>Each unit still succeeds or fails on its own: it runs under a savepoint of the shared
 * transaction, and a unit that throws is rolled back to it while the others go on. The caller gets
 * its result only once the shared transaction has committed, so an acknowledgement still means on
 * disk. When the shared transaction fails (a commit refused, a connection lost, a deadlock with
 * another process), nothing of the group is durable and every unit that had succeeded in it runs
 * again in a transaction of its own, on its caller's thread, so one unit can never fail another. A
 * unit that lost a conflict with another transaction inside the group (a deadlock, a lock wait, a
 * key taken meanwhile) also runs again alone, after the group committed, as it would have run had it
 * not been grouped. A unit that no writer has taken within a second (the writer stuck on a database that
 * stopped answering) is withdrawn from the queue and run by its caller.
 *
 * <p>Groups form on their own (store/Batcher): while a group commits, the next requests queue,
 * and the next group is whatever queued meanwhile; a lone request runs as a plain transaction.
 *
 * <p>Used by the refresh grant on H2 (through GroupedWrites), where on H2 the durable commit, one chunk
 * written per transaction, was a large share of a grant (docs/benchmarks-history.md, "Group commit for
 * refresh grants on H2"), and by event publishing on H2 (events/EventPublisher); not on PostgreSQL,
 * where a savepoint per publish cost more than the shared flush saved. Tried for code exchanges, it
 * made no measurable difference there and is not used there.
 *
 * <p>A unit must be a whole transaction's work that may run twice when its first run was rolled
 * back, and must not register after-commit callbacks on the handle (the shared handle would run them
 * even for a unit rolled back to its savepoint): it returns what the caller acts on after commit.
 */
public final class GroupCommit implements AutoCloseable {
    /**
     * One writer: while it commits a group, every transaction that arrives joins the next one, and on
     * H2 a commit writes the changed pages once for its whole group, so larger groups do more with
     * less (docs/benchmarks-history.md, "One writer for group commit on H2").
     */
    private static final int WRITERS = 1;
    private static final int MAX_GROUP = 64;
    private static final Duration WITHDRAW_AFTER = Duration.ofSeconds(1);

    /** One transaction's statements. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Handle h);
    }

    private final Jdbi jdbi;
    private final Batcher<Unit<?>> batcher;
    private final AtomicLong sharedCommits = new AtomicLong();

    GroupCommit(Jdbi jdbi) {
        this(jdbi, WRITERS, WITHDRAW_AFTER);
    }

    /**
     * @param writers       how many groups commit at once (tests hold some writers while others work)
     * @param withdrawAfter how long a unit waits for a writer before its caller runs it alone
     */
    GroupCommit(Jdbi jdbi, int writers, Duration withdrawAfter) {
        this.jdbi = jdbi;
        this.batcher = new Batcher<>("group-commit", Thread.ofPlatform().daemon(), writers, MAX_GROUP, withdrawAfter, this::commit);
    }

    /** Runs {@code work} as one transaction, sharing its commit with whatever is submitted at the same moment. */
    public <T> T inTransaction(Work<T> work) {
        Unit<T> unit = new Unit<>(jdbi, work);
        batcher.submit(unit);
        return unit.await();
    }

    /**
     * Runs a group of two or more in one transaction (store/Batcher runs a group of one as a plain
     * transaction) and settles every unit. What must run again alone (a unit whose group failed, a
     * unit that lost a conflict) goes back to its caller's thread rather than run one after another
     * on the writer.
     */
    void commit(List<Unit<?>> group) {
        try {
            jdbi.useTransaction(h -> {
                for (int i = 0; i < group.size(); i++) group.get(i).runUnderSavepoint(h, "unit_" + i);
            });
        } catch (RuntimeException | Error e) {
            for (Unit<?> u : group) {
                if (u.failure == null || Deadlocks.isConflict(u.failure)) u.sendBackToRunAlone();
                else u.settle();
            }
            return;
        }
        sharedCommits.incrementAndGet();
        for (Unit<?> u : group) {
            if (u.failure != null && Deadlocks.isConflict(u.failure)) u.sendBackToRunAlone();
            else u.settle();
        }
    }

    /** Units waiting for a writer (tests). */
    int queued() {
        return batcher.queued();
    }

    /** Transactions committed for a group of more than one unit (tests). */
    long sharedCommits() {
        return sharedCommits.get();
    }

    /** Stops taking work into groups once what is queued is committed; later work runs alone. */
    @Override
    public void close() {
        batcher.close();
    }

    /** A submitted transaction: its outcome inside the group, published to the caller once settled. */
    private static final class Unit<T> extends Batcher.Pending<T> {
        private final Jdbi jdbi;
        private final Work<T> work;
        /** The outcome under the group's savepoint: written by the writer, read by it after the shared commit. */
        private T result;
        private Throwable failure;

        Unit(Jdbi jdbi, Work<T> work) {
            this.jdbi = jdbi;
            this.work = work;
        }

        /** Throws when the savepoint itself fails (the connection gone): then the whole group fails. */
        void runUnderSavepoint(Handle h, String savepoint) {
            Savepoints.Attempt<T> attempt = Savepoints.attempt(h, savepoint, work::run);
            result = attempt.result();
            failure = attempt.failure();
        }

        void settle() {
            if (failure == null) complete(result);
            else fail(failure);
        }

        @Override
        protected T runAlone() {
            return jdbi.inTransaction(work::run);
        }
    }
}
