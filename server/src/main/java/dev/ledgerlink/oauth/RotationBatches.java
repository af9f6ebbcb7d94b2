package dev.ledgerlink.oauth;

import dev.ledgerlink.store.Batcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * PostgreSQL: the refresh rotations of concurrent grants in one statement
 * (TokenStore.ROTATE_REFRESH_TOKENS), so PostgreSQL parses, plans, executes and commits once for
 * a group instead of once per grant. A statement per grant was most of PostgreSQL's CPU per grant
 * (docs/benchmarks-history.md, "Refresh rotations in one statement per group"), and on PostgreSQL the
 * statement is the transaction, so this is group commit without savepoints: one round trip.
 *
 * <p>Each grant keeps its own guarantees. The statement's conditions are per token, so a token that
 * is not live, not this client's or whose secret does not match rotates nothing and does not stop
 * the others. Of racing requests that present the same token exactly one rotates it: two of them
 * in one group would make the statement's UPDATE see one row twice, so only the first goes into the
 * statement and the others run alone at once, where the database's row lock decides as it does for
 * any two statements. Rows are locked in token-id order, so two groups never wait for each other in
 * a cycle. When the statement fails as a whole (a deadlock with another transaction, a connection
 * lost, a database going away) every grant of the group runs again alone, on its caller's thread,
 * so one grant can never fail another; a connection lost after the commit leaves that commit
 * unknown, and the grant run again then finds its token used and is refused, as a client's own
 * retry of a lost answer would be. Groups form as store/Batcher says: nothing waits to fill one.
 */
public final class RotationBatches implements AutoCloseable {
    /**
     * One virtual thread: while it runs a group the next grants queue into one group, and one
     * statement for many grants costs PostgreSQL less than several for few; one writer did more grants
     * than two, three or four, and virtual threads more than platform ones (docs/benchmarks-history.md,
     * "Refresh rotations in one statement per group"). A group stuck on a row lock holds the queue up
     * to the withdrawal time, after which each waiting grant runs alone (store/Batcher). That was on
     * two cores: where PostgreSQL has many more, two writers may be worth measuring again.
     */
    static final int WRITERS = 1;
    private static final int MAX_GROUP = 64;
    private static final Duration WITHDRAW_AFTER = Duration.ofSeconds(1);

    private final Jdbi jdbi;
    private final Batcher<Request> batcher;
    private final AtomicLong groupStatements = new AtomicLong();

    public RotationBatches(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.batcher = new Batcher<>("refresh-rotation", Thread.ofVirtual(), WRITERS, MAX_GROUP, WITHDRAW_AFTER, this::rotateGroup);
    }

    /** Rotates the presented token if it is live, this client's and its secret matches; empty otherwise. */
    Optional<TokenStore.Rotated> rotate(TokenStore.Rotation rotation) {
        Request request = new Request(jdbi, rotation);
        batcher.submit(request);
        return request.await();
    }

    /** A group of two or more (store/Batcher runs a lone grant's one-token statement itself, Request.runAlone). */
    private void rotateGroup(List<Request> group) {
        Set<Long> presented = new HashSet<>();
        List<Request> statement = new ArrayList<>(group.size());
        for (Request r : group) {
            if (presented.add(r.rotation.used().id())) statement.add(r);
            else r.sendBackToRunAlone();   // the same token twice: the database decides between its statements
        }
        statement.sort(Comparator.comparingLong(r -> r.rotation.used().id()));
        List<TokenStore.Rotated> rotated;
        try {
            rotated = jdbi.withHandle(h -> new TokenStore(h).rotateRefreshTokens(statement.stream().map(Request::rotation).toList()));
        } catch (RuntimeException | Error e) {
            statement.forEach(Request::sendBackToRunAlone);
            return;
        }
        groupStatements.incrementAndGet();
        Map<Long, TokenStore.Rotated> byToken = new HashMap<>();
        for (TokenStore.Rotated r : rotated) byToken.put(r.usedId(), r);
        for (Request r : statement) r.complete(Optional.ofNullable(byToken.get(r.rotation.used().id())));
    }

    /** Statements that rotated a group of more than one request (tests). */
    long groupStatements() {
        return groupStatements.get();
    }

    /** Rotations waiting for a writer (tests). */
    int queued() {
        return batcher.queued();
    }

    @Override
    public void close() {
        batcher.close();
    }

    /** One grant's rotation waiting for its group's statement. */
    private static final class Request extends Batcher.Pending<Optional<TokenStore.Rotated>> {
        private final Jdbi jdbi;
        private final TokenStore.Rotation rotation;

        Request(Jdbi jdbi, TokenStore.Rotation rotation) {
            this.jdbi = jdbi;
            this.rotation = rotation;
        }

        TokenStore.Rotation rotation() {
            return rotation;
        }

        @Override
        protected Optional<TokenStore.Rotated> runAlone() {
            return jdbi.withHandle(h -> new TokenStore(h).rotateRefreshToken(rotation));
        }
    }
}
