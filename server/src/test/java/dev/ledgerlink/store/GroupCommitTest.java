package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.TestDatabases;
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
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void open() {
        var t = TestDatabases.fresh();
        db = Database.open(t.url(), t.user(), t.password(), 4, null);
        db.jdbi().useHandle(h -> h.execute("create table gc_rows (id int primary key, note varchar(40))"));
        commits = db.groupCommit();
    }

    @AfterEach
    void close() {
        release.countDown();
        callers.shutdownNow();
        db.close();
    }

    @Test
    void unitsQueuedWhileTheWritersAreBusyShareOneCommitAndAllAreDurable() throws Exception {
        List<Future<Integer>> results = occupyBothWriters();
        for (int i = 10; i < 30; i++) results.add(submit(insert(i)));
        awaitQueued(20);
        release.countDown();
        for (Future<Integer> f : results) assertEquals(1, f.get(30, TimeUnit.SECONDS));

        assertEquals(22, count());
        assertTrue(commits.sharedCommits() >= 1, "the 20 queued units were committed in groups");
    }

    @Test
    void aUnitThatThrowsIsRolledBackAloneAndItsCallerGetsTheException() throws Exception {
        List<Future<Integer>> blockers = occupyBothWriters();
        Future<Integer> before = submit(insert(10));
        Future<Integer> failing = submit(h -> {
            insert(11).run(h);
            throw new IllegalStateException("this unit fails after its insert");
        });
        Future<Integer> after = submit(insert(12));
        awaitQueued(3);
        release.countDown();
        for (Future<Integer> f : blockers) f.get(30, TimeUnit.SECONDS);

        assertEquals(1, before.get(30, TimeUnit.SECONDS));
        assertEquals(1, after.get(30, TimeUnit.SECONDS));
        var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> failing.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(List.of(1, 2, 10, 12), ids());
        assertTrue(commits.sharedCommits() >= 1);
    }

    @Test
    void aKeyTakenEarlierInTheSameGroupFailsOnlyThatUnitEvenWherePostgresAbortsTheStatement() throws Exception {
        List<Future<Integer>> blockers = occupyBothWriters();
        Future<Integer> first = submit(insert(10));
        Future<Integer> duplicate = submit(insert(10));
        Future<Integer> other = submit(insert(11));
        awaitQueued(3);
        release.countDown();
        for (Future<Integer> f : blockers) f.get(30, TimeUnit.SECONDS);

        assertEquals(1, first.get(30, TimeUnit.SECONDS));
        assertEquals(1, other.get(30, TimeUnit.SECONDS));
        var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> duplicate.get(30, TimeUnit.SECONDS));
        assertTrue(Constraints.isUniqueViolation(e.getCause()), e.getCause().toString());
        assertEquals(List.of(1, 2, 10, 11), ids());
    }

    @Test
    void whenTheSharedTransactionFailsEveryOtherUnitIsCommittedAlone() throws Exception {
        List<Future<Integer>> blockers = occupyBothWriters();
        Future<Integer> a = submit(insert(10));
        // An Error is not a unit's own failure to roll back to its savepoint: it ends the shared
        // transaction, as a lost connection would. Alone it fails again; the others commit alone.
        Future<Integer> fatal = submit(h -> {
            insert(11).run(h);
            throw new AssertionError("ends the shared transaction");
        });
        Future<Integer> b = submit(insert(12));
        awaitQueued(3);
        release.countDown();
        for (Future<Integer> f : blockers) f.get(30, TimeUnit.SECONDS);

        assertEquals(1, a.get(30, TimeUnit.SECONDS));
        assertEquals(1, b.get(30, TimeUnit.SECONDS));
        var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> fatal.get(30, TimeUnit.SECONDS));
        assertInstanceOf(AssertionError.class, e.getCause());
        assertEquals(List.of(1, 2, 10, 12), ids());
    }

    @Test
    void afterCloseWorkStillRunsAsATransactionOfItsOwn() {
        db.groupCommit().close();
        assertEquals(1, commits.inTransaction(insert(5)));
        assertEquals(List.of(5), ids());
    }

    /** Two units (ids 1 and 2) that hold both writer threads until {@link #release}. */
    private List<Future<Integer>> occupyBothWriters() throws InterruptedException {
        List<Future<Integer>> blockers = new ArrayList<>();
        for (int id = 1; id <= 2; id++) {
            CountDownLatch running = new CountDownLatch(1);
            int row = id;
            blockers.add(submit(h -> {
                running.countDown();
                await(release);
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
