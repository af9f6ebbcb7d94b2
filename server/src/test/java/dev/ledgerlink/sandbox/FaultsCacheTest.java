package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * What a request pays for the fault rules when there are none: at most one tiny statement (the
 * version row) per 250 ms for the whole process, whatever the number of requests; and a change made
 * by the same process is seen at once.
 */
@LedgerlinkTest
class FaultsCacheTest {
    static TestServer server;

    private static final Faults.Request ANYONE = new Faults.Request() {
        @Override public String clientId() { return "someone"; }
        @Override public String grantType() { return "refresh_token"; }
    };

    @Test
    void withNoRuleRequestsReadTheVersionAtMostOnceEveryRecheckInterval() {
        AtomicInteger statements = new AtomicInteger();
        Jdbi counted = Jdbi.create(server.services().database().dataSource()).installPlugin(new SqlObjectPlugin());
        counted.setSqlLogger(new SqlLogger() {
            @Override
            public void logBeforeExecution(StatementContext context) {
                statements.incrementAndGet();
            }
        });
        Faults faults = new Faults(counted, Clock.systemUTC());
        long started = System.nanoTime();
        for (int i = 0; i < 20_000; i++) assertTrue(faults.take(FaultRoute.TOKEN, ANYONE).isEmpty());
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        long allowed = 2 + 2 * (elapsedMs / Faults.RECHECK_MS + 1);   // the first look (version and rules), then the version per interval
        assertTrue(statements.get() <= allowed, statements.get() + " statements for 20,000 requests in " + elapsedMs + " ms");
    }

    @Test
    void aRuleAddedByThisProcessAppliesToItsNextRequest() {
        Faults faults = server.services().faults();
        faults.clear();
        assertTrue(faults.take(FaultRoute.IDENTITY, ANYONE).isEmpty());   // the "no rules" view is now cached
        FaultRule rule = faults.add(new FaultRule.Draft("identity", null, null, 429, null, null, null, 1));
        assertEquals(rule.id(), faults.take(FaultRoute.IDENTITY, ANYONE).orElseThrow().id());
        faults.add(new FaultRule.Draft("identity", null, null, 503, null, null, null, 1));
        faults.clear();
        assertTrue(faults.take(FaultRoute.IDENTITY, ANYONE).isEmpty(), "cleared rules stop at once");
    }
}
