package dev.ledgerlink.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Requests submitted at the same moment by different callers, taken as groups by a few writer
 * threads, so the database does one round trip (and one commit) for a group instead of one per
 * request: GroupCommit's shared transactions, PostgreSQL's grouped statements of GroupedWrites.
 *
 * <p>Groups form on their own: while a writer runs a group, the next requests queue, and its next
 * group is whatever queued meanwhile. Nothing waits to fill a group: a lone request is run at once,
 * only handed to a writer thread. With more than one writer a group in progress does not leave the
 * queue idle; with one (both users: GroupCommit, GroupedWrites), every request that arrives
 * meanwhile joins the next group, and fewer, larger groups did more on both databases. A unit that
 * no writer has taken within the withdrawal time (the writers stuck on a database that stopped
 * answering) is withdrawn from the queue and its caller runs it alone, so callers wait once each
 * rather than one after another.
 *
 * <p>The group handler gets groups of two or more and must settle every unit of a group (complete
 * what its caller waits for), whatever happens to the group.
 */
public final class Batcher<U extends Batcher.Pending<?>> implements AutoCloseable {
    private final String name;
    private final Thread.Builder threads;
    private final int writerCount;
    private final int maxGroup;
    private final long withdrawAfterMs;
    private final Consumer<List<U>> handler;
    private final LinkedBlockingQueue<U> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private boolean open = true;   // guarded by this

    /**
     * @param name          the writer threads' name prefix
     * @param threads       how writer threads are made (platform or virtual: whichever served its user better)
     * @param writers       how many groups run at once
     * @param maxGroup      the most units in one group
     * @param withdrawAfter how long a unit waits for a writer before its caller runs it alone
     * @param handler       runs a group of two or more and settles each of its units
     */
    public Batcher(String name, Thread.Builder threads, int writers, int maxGroup, Duration withdrawAfter, Consumer<List<U>> handler) {
        this.name = name;
        this.threads = threads;
        this.writerCount = writers;
        this.maxGroup = maxGroup;
        this.withdrawAfterMs = withdrawAfter.toMillis();
        this.handler = handler;
    }

    /**
     * Queues {@code unit} for a group; then the caller waits with {@link Pending#await}. A unit is
     * sent back to its caller to run alone when the batcher is closed or no writer took it in time.
     */
    public void submit(U unit) {
        synchronized (this) {
            if (!open) {
                unit.sendBackToRunAlone();
                return;
            }
            if (writers.isEmpty()) startWriters();
            queue.add(unit);
        }
        if (!unit.settledWithin(withdrawAfterMs) && queue.remove(unit)) unit.sendBackToRunAlone();
    }

    private void startWriters() {
        for (int i = 0; i < writerCount; i++) {
            writers.add(threads.name(name + "-" + i).start(this::writeLoop));
        }
    }

    private void writeLoop() {
        List<U> group = new ArrayList<>();
        while (true) {
            U first;
            try {
                // Bounded so a closing database waits at most this long for its idle writers
                // (they are never interrupted: an interrupt in the middle of H2's file I/O closes its file).
                first = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                first = queue.poll();
            }
            if (first == null) {
                synchronized (this) {
                    if (!open && queue.isEmpty()) return;
                }
                continue;
            }
            group.add(first);
            queue.drainTo(group, maxGroup - 1);
            // A group of one runs alone, on the writer, which keeps it busy so the next requests queue into a group.
            if (group.size() == 1) first.runHere();
            else handler.accept(List.copyOf(group));
            group.clear();
        }
    }

    /**
     * A unit's outcome as its caller sees it: a result, a failure, or "run it yourself, alone" (its
     * group failed as a whole, or no writer took it in time), which {@link #await} then does on the
     * caller's thread, so what runs again alone never queues behind other units on a writer.
     */
    public abstract static class Pending<T> {
        private final CompletableFuture<T> done = new CompletableFuture<>();
        /** Set before {@link #done} completes, read after: the future's completion publishes it. */
        private boolean alone;

        /** The unit's work in a transaction (or statement) of its own. */
        protected abstract T runAlone();

        public final void complete(T result) {
            done.complete(result);
        }

        public final void fail(Throwable failure) {
            done.completeExceptionally(failure);
        }

        /** The caller runs the unit itself (nothing of it was committed). */
        public final void sendBackToRunAlone() {
            alone = true;
            done.complete(null);
        }

        /** A group of one: run alone on the writer (writeLoop). */
        final void runHere() {
            try {
                complete(runAlone());
            } catch (RuntimeException | Error e) {
                fail(e);
            }
        }

        /** The outcome, once settled; the work run here, alone, when it was sent back. */
        public final T await() {
            T settled;
            try {
                settled = done.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                if (e.getCause() instanceof Error err) throw err;
                throw e;
            }
            return alone ? runAlone() : settled;
        }

        /** Settled within {@code millis}; false when no writer has got to it yet. */
        final boolean settledWithin(long millis) {
            try {
                done.get(millis, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;   // wait without a bound in await, as a caller outside a group would
            }
        }
    }

    /** Units waiting for a writer (tests). */
    public int queued() {
        return queue.size();
    }

    /** Stops taking units once what is queued has run; later submissions are refused (run alone). */
    @Override
    public void close() {
        List<Thread> started;
        synchronized (this) {
            open = false;
            started = List.copyOf(writers);
        }
        for (Thread w : started) {
            try {
                w.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
