package dev.ledgerlink.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * One port for a write that concurrent requests each make once, on a row of their own, at the
 * hottest rate (the refresh grant's rotation: oauth/TokenService#rotate), made the way each
 * database does it fastest. The caller gives its statements per database ({@link Statements}) and
 * gets, per request, what it wrote, or nothing when the statements' conditions wrote nothing. Each
 * request keeps its own guarantees whatever else is grouped with it: it succeeds or fails on its
 * own, and is answered only once what it wrote is durable.
 * <ul>
 *   <li>H2: each request's statements as a transaction of its own that shares its durable commit
 *   with the others submitted at the same moment ({@link GroupCommit}, the same one event publishing
 *   uses): on H2 the commit, a chunk written, was most of a grant's cost.</li>
 *   <li>PostgreSQL: the requests of a group in one statement, so PostgreSQL parses, plans, executes
 *   and commits once for the group instead of once per request; the statement is the transaction, so
 *   this is group commit without savepoints, one round trip. A lone request runs its own statement.
 *   Of requests for the same row (the same key) only the first goes into a group's statement, the
 *   others run alone at once, where the database's row lock decides as between any two statements;
 *   rows are locked in key order, so two groups never wait for each other in a cycle. When the group's
 *   statement fails as a whole (a deadlock, a connection lost, the database gone) every request of
 *   it runs again alone, on its caller's thread, so one request can never fail another; a connection
 *   lost after the commit leaves that commit unknown, and the request run again finds its row
 *   written (for the refresh grant: the token used, so the grant is refused, as a client's own retry
 *   of a lost answer would be).</li>
 * </ul>
 * Groups form as {@link Batcher} says: nothing waits to fill one. Why one writer, virtual, and what
 * a group saves: docs/benchmarks-history.md, "Refresh rotations in one statement per group".
 */
public final class GroupedWrites<R, T> implements AutoCloseable {
    /**
     * PostgreSQL's writers: one virtual thread, so while it runs a group the next requests queue into
     * one group (one statement for many costs PostgreSQL less than several for few). Measured on two
     * cores; where PostgreSQL has many more, two writers may be worth measuring again.
     */
    public static final int WRITERS = 1;
    private static final int MAX_GROUP = 64;
    private static final Duration WITHDRAW_AFTER = Duration.ofSeconds(1);

    /** A request's statements, per database. */
    public interface Statements<R, T> {
        /** The key of the row the request writes once: a group's statement holds each key once, in key order. */
        long key(R request);

        /** H2: the request's statements in {@code h}'s transaction (shared, under a savepoint of its own); empty when nothing was written. */
        Optional<T> inTransaction(Handle h, R request);

        /** PostgreSQL: the request alone, in one statement; empty when nothing was written. */
        Optional<T> alone(Handle h, R request);

        /** PostgreSQL: two or more requests, of distinct keys in key order, in one statement; what each wrote, by key (absent: nothing). */
        Map<Long, T> together(Handle h, List<R> requests);
    }

    private final Jdbi jdbi;
    private final Statements<R, T> statements;
    /** H2's shared commits; null on PostgreSQL. */
    private final GroupCommit commits;
    /** PostgreSQL's groups; null on H2. */
    private final Batcher<Request> batcher;
    private final AtomicLong groupStatements = new AtomicLong();

    private GroupedWrites(Jdbi jdbi, Statements<R, T> statements, GroupCommit commits, String name) {
        this.jdbi = jdbi;
        this.statements = statements;
        this.commits = commits;
        this.batcher = commits != null ? null
                : new Batcher<>(name, Thread.ofVirtual(), WRITERS, MAX_GROUP, WITHDRAW_AFTER, this::writeGroup);
    }

    /** The database's way of writing {@code statements}; {@code name} names PostgreSQL's writer threads. Closed with the database. */
    public static <R, T> GroupedWrites<R, T> of(Database database, String name, Statements<R, T> statements) {
        boolean h2 = database.dialect() == Database.Dialect.H2;
        return database.closing(new GroupedWrites<>(database.jdbi(), statements, h2 ? database.groupCommit() : null, name));
    }

    /** PostgreSQL's way, on {@code jdbi}, closed by the caller (tests that hold its writers). */
    public static <R, T> GroupedWrites<R, T> postgres(Jdbi jdbi, String name, Statements<R, T> statements) {
        return new GroupedWrites<>(jdbi, statements, null, name);
    }

    /** Writes what {@code request} writes, durable once this returns; empty when its conditions wrote nothing. */
    public Optional<T> write(R request) {
        if (commits != null) return commits.inTransaction(h -> statements.inTransaction(h, request));
        Request r = new Request(request);
        batcher.submit(r);
        return r.await();
    }

    /** PostgreSQL: a group of two or more (Batcher runs a lone request's statement itself, Request.runAlone). */
    private void writeGroup(List<Request> group) {
        Set<Long> keys = new HashSet<>();
        List<Request> statement = new ArrayList<>(group.size());
        for (Request r : group) {
            if (keys.add(statements.key(r.request))) statement.add(r);
            else r.sendBackToRunAlone();   // the same row twice: the database decides between its statements
        }
        statement.sort(Comparator.comparingLong(r -> statements.key(r.request)));
        Map<Long, T> written;
        try {
            written = jdbi.withHandle(h -> statements.together(h, statement.stream().map(r -> r.request).toList()));
        } catch (RuntimeException | Error e) {
            statement.forEach(Request::sendBackToRunAlone);
            return;
        }
        groupStatements.incrementAndGet();
        for (Request r : statement) r.complete(Optional.ofNullable(written.get(statements.key(r.request))));
    }

    /** PostgreSQL: statements that wrote a group of more than one request (tests). */
    public long groupStatements() {
        return groupStatements.get();
    }

    /** PostgreSQL: requests waiting for a writer (tests). */
    public int queued() {
        return batcher == null ? 0 : batcher.queued();
    }

    /** Stops taking requests into groups once what is queued is written; later ones run alone. H2's shared commits are the database's to close. */
    @Override
    public void close() {
        if (batcher != null) batcher.close();
    }

    /** One request waiting for its group's statement. */
    private final class Request extends Batcher.Pending<Optional<T>> {
        private final R request;

        Request(R request) {
            this.request = request;
        }

        @Override
        protected Optional<T> runAlone() {
            return jdbi.withHandle(h -> statements.alone(h, request));
        }
    }
}
