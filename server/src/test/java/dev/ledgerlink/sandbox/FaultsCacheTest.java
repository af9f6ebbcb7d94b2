package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;

/**
 * What a request pays for the fault rules: nothing from the database, with or without rules, unless a
 * rule matches (then one statement takes the match); the rules are read by the reader thread, one
 * tiny statement (the version row) per 250 ms for the whole process; and a change made by the same
 * process is seen at once. Nothing on a request's path waits for the database to learn the rules:
 * with the database away, a request would otherwise wait for a connection here before its route
 * waited again (DatabaseOutageTest).
 */
@LedgerlinkTest
class FaultsCacheTest {
    static TestServer server;

    private static final Faults.Request ANYONE = new Faults.Request() {
        @Override public String clientId() { return "someone"; }
        @Override public String grantType() { return "refresh_token"; }
    };

    /** The server's database through a Jdbi that counts statements: those run by {@code requests}, and all of them. */
    private static Jdbi counting(Thread requests, AtomicInteger onRequests, AtomicInteger all) {
        Jdbi counted = Jdbi.create(server.services().database().dataSource()).installPlugin(new SqlObjectPlugin());
        counted.setSqlLogger(new SqlLogger() {
            @Override
            public void logBeforeExecution(StatementContext context) {
                all.incrementAndGet();
                if (Thread.currentThread() == requests) onRequests.incrementAndGet();
            }
        });
        return counted;
    }

    @Test
    void requestsReadNothingAndTheReaderOnlyTheVersionOnceEveryRecheckInterval() {
        server.services().faults().clear();
        // a rule of another route: present, never matching the requests below
        server.services().faults().add(new FaultRule.Draft("revoke", null, null, 429, null, null, null, 1));
        AtomicInteger onRequests = new AtomicInteger();
        AtomicInteger all = new AtomicInteger();
        long started = System.nanoTime();
        try (Faults faults = new Faults(counting(Thread.currentThread(), onRequests, all), Clock.systemUTC())) {
            Thread.ofVirtual().start(faults::start).join();   // its first read, off the counted thread
            for (int i = 0; i < 20_000; i++) {
                assertTrue(faults.take(FaultRoute.TOKEN, ANYONE).isEmpty());
                assertTrue(faults.take(FaultRoute.IDENTITY, ANYONE).isEmpty());
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            server.services().faults().clear();
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(0, onRequests.get(), "statements on the requests' thread");
        long allowed = 2 + elapsedMs / Faults.RECHECK_MS + 1;   // the first read (version and rules), then the version per interval
        assertTrue(all.get() <= allowed, all.get() + " statements in " + elapsedMs + " ms");
    }

    @Test
    void aRuleAddedByThisProcessAppliesToItsNextRequest() {
        Faults faults = server.services().faults();
        faults.clear();
        assertTrue(faults.take(FaultRoute.IDENTITY, ANYONE).isEmpty());
        FaultRule rule = faults.add(new FaultRule.Draft("identity", null, null, 429, null, null, null, 1));
        assertEquals(rule.id(), faults.take(FaultRoute.IDENTITY, ANYONE).orElseThrow().id());
        faults.add(new FaultRule.Draft("identity", null, null, 503, null, null, null, 1));
        faults.clear();
        assertTrue(faults.take(FaultRoute.IDENTITY, ANYONE).isEmpty(), "cleared rules stop at once");
    }

    @Test
    void aRuleAddedByAnotherProcessIsTakenOnceTheReaderHasSeenIt() {
        Faults server1 = server.services().faults();
        server1.clear();
        // another process over the same database (the CLI, a second server): its own Faults, not started
        Faults other = new Faults(server.services().database().jdbi(), Clock.systemUTC());
        FaultRule rule = other.add(new FaultRule.Draft("introspect", null, null, 429, null, null, null, 1));
        try {
            Eventually.await("the server's reader sees the other process's rule",
                    () -> server1.take(FaultRoute.INTROSPECT, ANYONE).map(FaultRule::id).orElse(-1L) == rule.id());
        } finally {
            server1.clear();
        }
    }
}
