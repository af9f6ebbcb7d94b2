package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ledgerlink.store.DatabaseUnavailable;
import dev.ledgerlink.store.GroupedWrites;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.PostgresCluster;
import dev.ledgerlink.testing.PostgresOnly;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's refresh rotations of concurrent grants in one statement (store/GroupedWrites running
 * TokenStore.ROTATIONS; the PostgreSQL pass only: on H2 refresh grants share commits through
 * store/GroupCommit, and the statement is PostgreSQL's).
 * Each test first holds the writers on rows it has locked, so what it submits next queues and is
 * taken as one group when it lets them go.
 */
@LedgerlinkTest
@PostgresOnly
@Heavy
class RotationGroupsTest {
    static TestServer server;

    /** The server whose database the test uses: the shared one, or one on a cluster of the test's own. */
    private TestServer current;
    private Jdbi jdbi;
    private GroupedWrites<TokenStore.Rotation, TokenStore.Rotated> batches;
    private Handle locker;
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();

    @BeforeAll
    static void postgresOnly() {
        // The H2 pass does not run this class (@PostgresOnly); this says why when a -Dtest run asks it to.
        assumeTrue(TestDatabases.postgres(), "grouped rotation statements are PostgreSQL's: on H2 refresh grants share commits through GroupCommit");
    }

    @BeforeEach
    void open() {
        use(server);
    }

    private void use(TestServer s) {
        if (batches != null) batches.close();
        current = s;
        jdbi = s.services().database().jdbi();
        batches = GroupedWrites.postgres(jdbi, "test-rotation", TokenStore.ROTATIONS);
    }

    @AfterEach
    void close() {
        if (locker != null) locker.close();
        callers.shutdownNow();
        batches.close();
    }

    @Test
    void rotationsQueuedWhileTheWritersAreBusyShareOneStatementAndEachGetsItsOwnSuccessors() throws Exception {
        List<TokenStore.Rotation> rotations = new ArrayList<>();
        for (int i = 0; i < 10; i++) rotations.add(rotation(liveToken()));

        List<Future<Optional<TokenStore.Rotated>>> results = queuedBehindBusyWriters(rotations);

        for (int i = 0; i < rotations.size(); i++) {
            TokenStore.Rotation asked = rotations.get(i);
            TokenStore.Rotated done = results.get(i).get(30, TimeUnit.SECONDS).orElseThrow();
            assertEquals(asked.used().id(), done.usedId());
            // The successors are this token's: the hashes it brought, in its grant, used at its time.
            assertArrayEquals(asked.refreshHash(), column("select token_hash from oauth_refresh_tokens where id = ?", done.refreshTokenId()));
            assertArrayEquals(asked.accessHash(), column("select token_hash from oauth_access_tokens where id = ?", done.accessTokenId()));
            assertEquals(grantOf(asked.used().id()), done.grantId());
            assertEquals(grantOf(done.refreshTokenId()), done.grantId());
            assertEquals(asked.now(), jdbi.withHandle(h -> h.select("select used_at from oauth_refresh_tokens where id = ?", asked.used().id())
                    .mapTo(Instant.class).one()));
        }
        assertTrue(batches.groupStatements() >= 1, "the ten queued rotations ran as a group");
    }

    @Test
    void aTokenPresentedSeveralTimesInOneGroupIsRotatedOnce() throws Exception {
        TokenFormat.Selected twice = liveToken();
        List<TokenStore.Rotation> rotations = List.of(rotation(twice), rotation(liveToken()), rotation(twice), rotation(twice));

        List<Future<Optional<TokenStore.Rotated>>> results = queuedBehindBusyWriters(rotations);

        int rotatedTwice = 0;
        for (int i : new int[] {0, 2, 3}) if (results.get(i).get(30, TimeUnit.SECONDS).isPresent()) rotatedTwice++;
        assertEquals(1, rotatedTwice, "exactly one of the three rotations of one token wins");
        assertTrue(results.get(1).get(30, TimeUnit.SECONDS).isPresent());
        int inGrant = jdbi.withHandle(h -> h.select("select count(*) from oauth_refresh_tokens where grant_id = ?", grantOf(twice.id()))
                .mapTo(Integer.class).one());
        assertEquals(2, inGrant, "the token and one successor in its grant");
    }

    @Test
    void whenTheGroupsStatementFailsEveryOtherRotationSucceedsAlone() throws Exception {
        // No hash for the new refresh token: its insert breaks a NOT NULL rule, which fails the
        // statement, so the whole group; alone, it fails again and the others rotate.
        TokenStore.Rotation valid = rotation(liveToken());
        TokenStore.Rotation broken = new TokenStore.Rotation(valid.used(), valid.applicationId(), null, valid.accessHash(), valid.now(), valid.expiresAt());
        List<TokenStore.Rotation> rotations = List.of(rotation(liveToken()), broken, rotation(liveToken()));

        List<Future<Optional<TokenStore.Rotated>>> results = queuedBehindBusyWriters(rotations);

        assertTrue(results.get(0).get(30, TimeUnit.SECONDS).isPresent());
        ExecutionException failed = assertThrows(ExecutionException.class, () -> results.get(1).get(30, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getMessage().contains("token_hash"), failed.getCause().toString());
        assertTrue(results.get(2).get(30, TimeUnit.SECONDS).isPresent());
        assertNull(jdbi.withHandle(h -> h.select("select used_at from oauth_refresh_tokens where id = ?", broken.used().id())
                .mapTo(Instant.class).one()), "the broken rotation left its token live");
    }

    @Test
    void aTokenThatIsNotLiveOrNotThisClientsRotatesNothingAndDoesNotStopTheOthers() throws Exception {
        TokenFormat.Selected used = liveToken();
        assertTrue(batches.write(rotation(used)).isPresent());
        TokenStore.Rotation other = rotation(liveToken());
        TokenStore.Rotation anotherClients = new TokenStore.Rotation(other.used(), other.applicationId() + 1_000_000, other.refreshHash(),
                other.accessHash(), other.now(), other.expiresAt());
        TokenFormat.Selected live = liveToken();
        TokenStore.Rotation wrongSecret = rotation(new TokenFormat.Selected(live.kind(), live.id(), TokenFormat.hashOf(TokenFormat.newSecret())));

        List<Future<Optional<TokenStore.Rotated>>> results =
                queuedBehindBusyWriters(List.of(rotation(used), anotherClients, wrongSecret, rotation(liveToken())));

        assertTrue(results.get(0).get(30, TimeUnit.SECONDS).isEmpty(), "used");
        assertTrue(results.get(1).get(30, TimeUnit.SECONDS).isEmpty(), "another client's");
        assertTrue(results.get(2).get(30, TimeUnit.SECONDS).isEmpty(), "wrong secret");
        assertTrue(results.get(3).get(30, TimeUnit.SECONDS).isPresent());
    }

    /**
     * The database goes away while a group waits behind busy writers (a cluster of the test's own,
     * stopped in fast mode: every session ends). The held rotations and the queued group each fail
     * as "database unavailable" (the token endpoint's 503), none waits forever, and once the
     * database is back every one of those tokens is still live and rotates: nothing was half done.
     */
    @Test
    void rotationsQueuedWhenTheDatabaseGoesAwayFailAsUnavailableAndRotateOnceItIsBack() throws Exception {
        try (PostgresCluster cluster = PostgresCluster.start(); TestServer own = TestServer.start(cluster.db(), s -> s)) {
            use(own);
            List<TokenFormat.Selected> tokens = new ArrayList<>();
            for (int i = 0; i < 6; i++) tokens.add(liveToken());
            List<TokenStore.Rotation> rotations = tokens.stream().map(this::rotation).toList();
            HeldWriters held = holdWriters();
            List<Future<Optional<TokenStore.Rotated>>> results = queue(rotations);

            cluster.stop();
            List<Future<Optional<TokenStore.Rotated>>> all = new ArrayList<>(held.rotations());
            all.addAll(results);
            for (var r : all) {
                ExecutionException failed = assertThrows(ExecutionException.class, () -> r.get(60, TimeUnit.SECONDS));
                assertTrue(DatabaseUnavailable.causedBy(failed.getCause()), failed.getCause().toString());
            }
            try {
                locker.close();   // its session ended with the cluster
            } catch (RuntimeException expected) {
                // closing a connection the server has cut may report it; nothing is left to release
            } finally {
                locker = null;
            }

            cluster.startAgain();
            tokens.addAll(held.tokens());
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            for (TokenFormat.Selected t : tokens) {
                Optional<TokenStore.Rotated> rotated = Optional.empty();
                while (rotated.isEmpty()) {
                    try {
                        rotated = Optional.of(batches.write(rotation(t)).orElseThrow(() -> new AssertionError("token " + t.id() + " is no longer live")));
                    } catch (RuntimeException e) {   // the pool's first connections after the restart
                        if (!DatabaseUnavailable.causedBy(e) || System.nanoTime() > end) throw e;
                        Thread.sleep(100);
                    }
                }
                assertEquals(t.id(), rotated.get().usedId());
            }
            use(server);
        }
    }

    @Test
    void bothRotationStatementsArePlannedForTheTablesAsTheyAreEveryTime() {
        // PostgreSQL keeps a plan of a statement the driver has prepared on the server (after five
        // runs on a connection): a plan made for the token and grant tables as they were then
        // (store/PlainJdbc.queryPlannedEachTime says why that hurts).
        try (Handle h = jdbi.open()) {
            TokenStore store = new TokenStore(h);
            TokenFormat.Selected read = liveToken();
            for (int i = 0; i < 8; i++) {
                assertEquals(1, store.rotateRefreshTokens(List.of(rotation(liveToken()))).size());
                assertTrue(store.rotateRefreshToken(rotation(liveToken())).isPresent());
                assertTrue(store.refreshToken(read).isPresent());   // a statement the driver does prepare: the control
            }
            List<String> kept = h.select("select statement from pg_prepared_statements").mapTo(String.class).list();
            assertTrue(kept.stream().anyMatch(q -> q.contains("join oauth_grants g on g.id = r.grant_id where r.id = $2")),
                    "the token read, run as often on this connection, is kept: " + kept);
            // Each rotation statement is recognised by text of its own; checked against the statements
            // themselves, so that a rewrite of their SQL cannot leave these checks looking for nothing.
            assertTrue(TokenStore.ROTATE_REFRESH_TOKEN.text().contains("where r.id = :id and r.token_hash = :hash")
                    && TokenStore.ROTATE_REFRESH_TOKENS.text().contains("unnest("), "the texts looked for below are in the statements");
            assertTrue(kept.stream().noneMatch(q -> q.contains("where r.id = $2 and r.token_hash = $3")), kept.toString());
            assertTrue(kept.stream().noneMatch(q -> q.contains("unnest")), kept.toString());
        }
    }

    /**
     * Locks a live token's row per writer, submits their rotations one at a time (each writer takes
     * one and waits for its lock; all in one group would hold one writer only), queues
     * {@code rotations} behind them, then lets the writers go.
     */
    private List<Future<Optional<TokenStore.Rotated>>> queuedBehindBusyWriters(List<TokenStore.Rotation> rotations) throws Exception {
        HeldWriters held = holdWriters();
        List<Future<Optional<TokenStore.Rotated>>> results = queue(rotations);
        locker.rollback();
        for (var b : held.rotations()) assertTrue(b.get(30, TimeUnit.SECONDS).isPresent());
        return results;
    }

    /** Writers held on rows of {@link #locker}: the tokens whose rotation each one waits on. */
    private record HeldWriters(List<TokenFormat.Selected> tokens, List<Future<Optional<TokenStore.Rotated>>> rotations) {}

    private HeldWriters holdWriters() throws Exception {
        List<TokenFormat.Selected> held = new ArrayList<>();
        for (int i = 0; i < GroupedWrites.WRITERS; i++) held.add(liveToken());
        locker = jdbi.open();
        locker.begin();
        for (TokenFormat.Selected t : held) locker.execute("select id from oauth_refresh_tokens where id = ? for update", t.id());
        List<Future<Optional<TokenStore.Rotated>>> blockers = new ArrayList<>();
        for (TokenFormat.Selected t : held) {
            blockers.add(submit(rotation(t)));
            awaitLockWaits(blockers.size());
        }
        return new HeldWriters(held, blockers);
    }

    /** Submits the rotations and waits until all of them wait in the queue. */
    private List<Future<Optional<TokenStore.Rotated>>> queue(List<TokenStore.Rotation> rotations) throws Exception {
        List<Future<Optional<TokenStore.Rotated>>> results = new ArrayList<>();
        for (TokenStore.Rotation r : rotations) results.add(submit(r));
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (batches.queued() < rotations.size()) {
            if (System.nanoTime() > end) throw new AssertionError("only " + batches.queued() + " rotations queued");
            Thread.sleep(5);
        }
        return results;
    }

    private Future<Optional<TokenStore.Rotated>> submit(TokenStore.Rotation r) {
        return callers.submit(() -> batches.write(r));
    }

    /** Waits until {@code n} statements of other sessions wait for a row lock (that many writers held). */
    private void awaitLockWaits(int n) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (jdbi.withHandle(h -> h.select("select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")
                .mapTo(Integer.class).one()) < n) {
            if (System.nanoTime() > end) throw new AssertionError("the writers never waited for the locked rows");
            Thread.sleep(5);
        }
    }

    /** The refresh token of a new authorization of a user and application of their own: live. */
    private TokenFormat.Selected liveToken() {
        TokenPair pair = Fixtures.create(current).issue();
        return (TokenFormat.Selected) current.services().tokens().format().parse(pair.refreshToken());
    }

    private TokenStore.Rotation rotation(TokenFormat.Selected token) {
        long application = jdbi.withHandle(h -> h.select("select application_id from oauth_refresh_tokens where id = ?", token.id())
                .mapTo(Long.class).one());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return new TokenStore.Rotation(token, application, TokenFormat.hashOf(TokenFormat.newSecret()),
                TokenFormat.hashOf(TokenFormat.newSecret()), now, now.plus(Duration.ofHours(1)));
    }

    private long grantOf(long refreshTokenId) {
        return jdbi.withHandle(h -> h.select("select grant_id from oauth_refresh_tokens where id = ?", refreshTokenId).mapTo(Long.class).one());
    }

    private byte[] column(String sql, long id) {
        return jdbi.withHandle(h -> h.select(sql, id).mapTo(byte[].class).one());
    }
}
