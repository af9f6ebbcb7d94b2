package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.LogLines;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * issue 43 item 6: a node whose pool, times the ledgerlink processes on the same PostgreSQL server,
 * does not fit in max_connections says so at start; one that fits, and any node on H2, says nothing.
 */
class ConnectionBudgetTest {

    @Test
    void aPoolThatCannotFitInMaxConnectionsIsWarnedAboutAtStart() {
        try (LogLines log = new LogLines(); TestServer server = TestServer.start(TestDatabases.fresh(), s -> s.set(Setting.DB_POOL_SIZE, "100000"))) {
            List<LogLines.Line> warned = log.matching(l -> l.message().startsWith("db.pool-size 100000 x "));
            if (TestDatabases.postgres()) {
                assertEquals(1, warned.size(), log.all().toString());
                String w = warned.getFirst().message();
                assertTrue(w.contains("but PostgreSQL allows") && w.contains("max_connections") && w.contains("docs/operations.md, \"Connections\""), w);
                var reading = ConnectionBudget.read(server.services().database(), 100000).orElseThrow();
                assertTrue(reading.ledgerlinkProcesses() >= 1 && !reading.fits(), reading.toString());
            } else {
                assertEquals(List.of(), warned, "H2 has no connection limit");
            }
        }
    }

    @Test
    void aPoolThatFitsIsNotWarnedAbout() {
        try (LogLines log = new LogLines(); TestServer server = TestServer.start(TestDatabases.fresh(), s -> s.set(Setting.DB_POOL_SIZE, "2"))) {
            assertEquals(List.of(), log.matching(l -> l.message().startsWith("db.pool-size ")), "two connections fit");
            ConnectionBudget.read(server.services().database(), 2).ifPresent(r -> assertTrue(r.available() > 0, r.toString()));
        }
    }
}
