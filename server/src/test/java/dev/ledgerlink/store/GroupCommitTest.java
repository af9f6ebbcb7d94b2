package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.TestDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit on whichever database this pass uses: units queued while both writers are busy share
 * one transaction, and each unit still commits or fails on its own.
 */
class GroupCommitTest {
    private Database db;
    private GroupCommit commits;
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    /** Hold blocker 1's and blocker 2's writer until counted down (see {@link #occupyBothWriters}). */
    private final CountDownLatch releaseFirst = new CountDownLatch(1);
    private final CountDownLatch releaseSecond = new CountDownLatch(1);

    @BeforeEach
    void open() {
        var t = TestDatabases.fresh();
        db = Database.open(t.url(), t.user(), t.password(), 4, null);
        db.jdbi().useHandle(h -> h.execute("create table gc_rows (id int primary key, note varchar(40))"));
        // Units wait for a writer as long as a test holds both (the withdrawal has a test of its own).
        // Two writers (the server has one): the tests hold one writer while the other takes a group.
        commits = new GroupCommit(db.jdbi(), 2, Duration.ofMinutes(1));
    }

    @AfterEach
    void close() {
        releaseBoth();
        callers.shutdownNow();
        commits.close();
        db.close();
    }

    @Test
    void unitsQueuedWhileTheWritersAreBusyShareOneCommitAndAllAreDurable() throws Exception {
        List<GroupCommit.Work<Integer>> units = new ArrayList<>();
        for (int i = 10; i < 30; i++) units.add(insert(i));
        for (Future<Integer> f : queuedBehindBusyWriters(units)) assertEquals(1, get(f));

        assertEquals(22, count());
        assertTrue(commits.sharedCommits() >= 1, "the 20 queued units were committed in groups");
    }

    @Test
    void aUnitThatThrowsIsRolledBackAloneAndItsCallerGetsTheException() throws Exception {
        var r = queuedBehindBusyWriters(List.of(insert(10), h -> {
            insert(11).run(h);
            throw new IllegalStateException("this unit fails after its insert");
        }, insert(12)));

        assertEquals(1, get(r.get(0)));
        assertInstanceOf(IllegalStateException.class, failure(r.get(1)));
        assertEquals(1, get(r.get(2)));
        assertEquals(List.of(1, 2, 10, 12), ids());
        assertTrue(commits.sharedCommits() >= 1);
    }

    @Test
    void aKeyTakenEarlierInTheSameGroupFailsOnlyThatUnitEvenWherePostgresAbortsTheStatement() throws Exception {
        var r = queuedBehindBusyWriters(List.of(insert(10), insert(10), insert(11)));

        assertEquals(1, get(r.get(0)));
        Throwable duplicate = failure(r.get(1));
        assertTrue(Constraints.isUniqueViolation(duplicate), duplicate.toString());
        assertEquals(1, get(r.get(2)));
        assertEquals(List.of(1, 2, 10, 11), ids());
    }

    @Test
    void whenTheSharedTransactionFailsEveryOtherUnitIsCommittedAlone() throws Exception {
        // An Error is not a unit's own failure to roll back to its savepoint: it ends the shared
        // transaction, as a lost connection would. Alone it fails again; the others commit alone.
        var r = queuedBehindBusyWriters(List.of(insert(10), h -> {
            insert(11).run(h);
            throw new AssertionError("ends the shared transaction");
        }, insert(12)));

        assertEquals(1, get(r.get(0)));
        assertInstanceOf(AssertionError.class, failure(r.get(1)));
        assertEquals(1, get(r.get(2)));
        assertEquals(List.of(1, 2, 10, 12), ids());
    }

    @Test
    void aUnitNoWriterTakesInTimeIsRunByItsCallerSoAStuckDatabaseIsWaitedForOnceNotOncePerUnit() throws Exception {
        commits.close();
        commits = new GroupCommit(db.jdbi(), 2, Duration.ofMillis(200));
        List<Future<Integer>> blockers = occupyBothWriters();
        java.util.Set<String> ranOn = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Future<Integer> waiting = submit(h -> {
            ranOn.add(Thread.currentThread().getName());
            return insert(10).run(h);
        });

        assertEquals(1, get(waiting), "done while both writers are still held");
        assertTrue(ranOn.stream().noneMatch(n -> n.startsWith("group-commit-")), "run by its caller: " + ranOn);
        releaseBoth();
        for (Future<Integer> b : blockers) assertEquals(1, get(b));
        assertEquals(List.of(1, 2, 10), ids());
    }

    @Test
    void aUnitRunAgainAfterItsGroupFailedRunsOnItsCallersThread() throws Exception {
        java.util.List<String> ranOn = java.util.Collections.synchronizedList(new ArrayList<>());
        var r = queuedBehindBusyWriters(List.of(h -> {
            ranOn.add(Thread.currentThread().getName());
            return insert(10).run(h);
        }, h -> {
            throw new AssertionError("ends the shared transaction");
        }));

        assertEquals(1, get(r.get(0)));
        assertInstanceOf(AssertionError.class, failure(r.get(1)));
        // One writer is released first and drains both units into one group (queuedBehindBusyWriters).
        assertEquals(2, ranOn.size(), "once in the group, once alone: " + ranOn);
        assertTrue(ranOn.get(0).startsWith("group-commit-"), ranOn.toString());
        assertTrue(!ranOn.get(1).startsWith("group-commit-"), "the second run on the caller's thread: " + ranOn);
    }

    @Test
    void afterCloseWorkStillRunsAsATransactionOfItsOwn() {
        commits.close();
        assertEquals(1, commits.inTransaction(insert(5)));
        assertEquals(List.of(5), ids());
    }

    /**
     * Submits {@code units}, in this order, while two other units (ids 1 and 2) hold both writer
     * threads, so they queue and are then taken in groups; returns their futures, in order, once the
     * two blockers are done.
     */
    private List<Future<Integer>> queuedBehindBusyWriters(List<GroupCommit.Work<Integer>> units) throws Exception {
        List<Future<Integer>> blockers = occupyBothWriters();
        List<Future<Integer>> submitted = new ArrayList<>();
        for (GroupCommit.Work<Integer> u : units) {
            submitted.add(submit(u));
            awaitQueued(submitted.size());   // one at a time: the queue's order is the list's (callers are threads of their own)
        }
        // One writer at a time: released together, the two could split the queue between them (a fresh-
        // clone run on PostgreSQL once put two inserts of one key into different groups, and the second
        // won). The first writer back drains every queued unit into one group; then the other goes.
        releaseFirst.countDown();
        assertEquals(1, get(blockers.get(0)));
        awaitDrained();
        releaseSecond.countDown();
        assertEquals(1, get(blockers.get(1)));
        return submitted;
    }

    private static Integer get(Future<Integer> f) throws Exception {
        return f.get(30, TimeUnit.SECONDS);
    }

    private static Throwable failure(Future<Integer> f) {
        return assertThrows(java.util.concurrent.ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS)).getCause();
    }

    /** Two units (ids 1 and 2) that hold the two writer threads until {@link #releaseFirst} and {@link #releaseSecond}. */
    private List<Future<Integer>> occupyBothWriters() throws InterruptedException {
        List<Future<Integer>> blockers = new ArrayList<>();
        for (int id = 1; id <= 2; id++) {
            CountDownLatch running = new CountDownLatch(1);
            int row = id;
            blockers.add(submit(h -> {
                running.countDown();
                await(row == 1 ? releaseFirst : releaseSecond);
                return insert(row).run(h);
            }));
            assertTrue(running.await(30, TimeUnit.SECONDS), "blocker " + id + " reached a writer");
        }
        return blockers;
    }

    private Future<Integer> submit(GroupCommit.Work<Integer> work) {
        return callers.submit(() -> commits.inTransaction(work));
    }

    private static GroupCommit.Work<Integer> insert(int id) {
        return h -> h.createUpdate("insert into gc_rows (id, note) values (:id, 'row')").bind("id", id).execute();
    }

    private void releaseBoth() {
        releaseFirst.countDown();
        releaseSecond.countDown();
    }

    /** Until a writer has taken every queued unit. */
    private void awaitDrained() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (commits.queued() > 0) {
            if (System.nanoTime() > end) throw new AssertionError(commits.queued() + " units still queued");
            Thread.sleep(5);
        }
    }

    private void awaitQueued(int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (commits.queued() < n) {
            if (System.nanoTime() > end) throw new AssertionError("only " + commits.queued() + " of " + n + " units queued");
            Thread.sleep(5);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int count() {
        return db.jdbi().withHandle(h -> h.createQuery("select count(*) from gc_rows").mapTo(Integer.class).one());
    }

    private List<Integer> ids() {
        return db.jdbi().withHandle((Handle h) -> h.createQuery("select id from gc_rows order by id").mapTo(Integer.class).list());
    }
}
