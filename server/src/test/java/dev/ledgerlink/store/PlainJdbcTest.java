package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/**
 * The plain-JDBC statements of the hot paths behave as JDBI's would, on H2 and PostgreSQL: they run
 * in the handle's transaction, instants round-trip to the microsecond in UTC, and a failure is a
 * JDBI statement exception whose SQL state the conflict rules read, naming the statement but adding
 * none of the values bound to it.
 */
@LedgerlinkTest
class PlainJdbcTest {
    private static final Named INSERT = Named.sql("insert into hot_probe (id, secret, at) values (:id, :secret, :at)");
    private static final Named AT_OF = Named.sql("select at from hot_probe where id = :id");
    TestServer server;

    /** A fresh table named hot_probe for this test (tests of a class may share one database). */
    private Jdbi probeTable() {
        Jdbi jdbi = server.services().database().jdbi();
        jdbi.useHandle(h -> {
            h.execute("drop table if exists hot_probe");
            h.execute("create table hot_probe (id integer primary key, secret varchar(64), at timestamp with time zone)");
        });
        return jdbi;
    }

    @Test
    void writesAndReadsInTheHandlesTransactionWithInstantsExact() {
        Jdbi jdbi = probeTable();
        Instant at = DbTime.now(java.time.Clock.systemUTC());
        jdbi.useTransaction(h -> {
            assertEquals(1, PlainJdbc.update(h, INSERT, p -> p.set("id", 1).set("secret", "a").set("at", at)));
            h.rollback();
        });
        assertEquals(Optional.empty(), jdbi.withHandle(h -> PlainJdbc.queryOne(h, AT_OF,
                p -> p.set("id", 1), r -> TimeMapping.read(r, 1))), "rolled back with the handle's transaction");

        jdbi.useHandle(h -> PlainJdbc.update(h, INSERT, p -> p.set("id", 1).set("secret", "a").set("at", at)));
        assertEquals(Optional.of(at), jdbi.withHandle(h -> PlainJdbc.queryOne(h, AT_OF,
                p -> p.set("id", 1), r -> TimeMapping.read(r, "at"))));
        assertEquals(at, jdbi.withHandle(h -> h.createQuery("select at from hot_probe where id = 1").mapTo(Instant.class).one()),
                "JDBI's registered mapping reads the same instant");
    }

    @Test
    void aNamedStatementBindsEachValueToEveryPlaceItsNameAppears() {
        Jdbi jdbi = probeTable();
        Instant at = DbTime.now(java.time.Clock.systemUTC());
        Named insert = INSERT;
        Named find = Named.sql("select secret from hot_probe where id = :id and at = :at and (secret = :secret or :secret is null)");
        jdbi.useHandle(h -> PlainJdbc.update(h, insert, p -> p.set("id", 1).set("secret", "a").set("at", at)));
        assertEquals(Optional.of("a"), jdbi.withHandle(h -> PlainJdbc.queryOne(h, find,
                p -> p.set("id", 1).set("at", at).set("secret", "a"), r -> r.getString(1))));
        assertEquals(Optional.empty(), jdbi.withHandle(h -> PlainJdbc.queryOne(h, find,
                p -> p.set("id", 1).set("at", at).set("secret", "b"), r -> r.getString(1))), "both places of :secret hold b");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> jdbi.useHandle(h -> PlainJdbc.update(h, insert, p -> p.set("id", 2).set("secret", "c").set("when", at))));
        assertTrue(unknown.getMessage().contains(":when"), unknown.getMessage());
    }

    @Test
    void aFailureIsAJdbiStatementExceptionWithItsSqlStateAndWithoutTheBoundValues() {
        Jdbi jdbi = probeTable();
        String secret = "5f2b9c0e1d7a4b3c8e6f0a1b2c3d4e5f5f2b9c0e1d7a4b3c8e6f0a1b2c3d4e5f";
        PlainJdbc.Binder row = p -> p.set("id", 7).set("secret", secret).set("at", (Instant) null);
        jdbi.useHandle(h -> PlainJdbc.update(h, INSERT, row));
        UnableToExecuteStatementException duplicate = assertThrows(UnableToExecuteStatementException.class,
                () -> jdbi.useHandle(h -> PlainJdbc.update(h, INSERT, row)));
        assertTrue(Deadlocks.isConflict(duplicate), "a key taken is a conflict, as through JDBI: " + duplicate);
        String message = duplicate.getMessage();
        int added = message.lastIndexOf(" [statement: ");
        assertTrue(added > 0 && message.substring(added).contains("insert into hot_probe"), message);
        // The driver's own text comes first (H2 quotes the whole row of a key violation); what this
        // class adds names the statement and never a value bound to it, unlike JDBI's "arguments:".
        assertFalse(message.substring(added).contains(secret), "no bound value added: " + message);
    }

    @Test
    void aBatchCountsEachRowInOrderAndSendsNothingForNoRows() {
        Jdbi jdbi = probeTable();
        jdbi.useHandle(h -> h.execute("insert into hot_probe (id, secret) values (1, 'a'), (2, 'b')"));
        Named conditional = Named.sql("update hot_probe set secret = :to where id = :id and secret = :was");
        int[] counts = jdbi.inTransaction(h -> PlainJdbc.batch(h, conditional,
                List.of(new Object[] {"x", 1, "a"}, new Object[] {"y", 2, "not b"}, new Object[] {"z", 3, "c"}),
                (p, row) -> p.set("to", (String) row[0]).set("id", (int) (Integer) row[1]).set("was", (String) row[2])));
        assertArrayEquals(new int[] {1, 0, 0}, counts, "what each row's condition applied, in the rows' order");
        assertArrayEquals(new int[0], jdbi.withHandle(h -> PlainJdbc.batch(h, conditional, List.<Object[]>of(), (st, row) -> {
            throw new AssertionError("no row to bind");
        })));
        assertThrows(UnableToExecuteStatementException.class, () -> jdbi.useTransaction(h -> PlainJdbc.batch(h,
                Named.sql("insert into hot_probe (id, secret) values (:id, 'dup')"), List.of(5, 1), (p, id) -> p.set("id", (int) id))),
                "a row of the batch that fails fails the batch, as JDBI's would");
        assertEquals(Optional.empty(), jdbi.withHandle(h -> PlainJdbc.queryOne(h, Named.sql("select id from hot_probe where id = :id"),
                p -> p.set("id", 5), r -> r.getInt(1))), "and its transaction keeps none of it");
    }

    @Test
    void anInsertWhoseConditionHoldsReturnsItsNewIdAndOneWhoseConditionFailsReturnsNone() {
        Jdbi jdbi = probeTable();
        jdbi.useHandle(h -> {
            h.execute("insert into hot_probe (id, secret) values (1, 'known')");
            h.execute("drop table if exists hot_ids");
            h.execute("create table hot_ids (id bigint generated by default as identity primary key, secret varchar(64))");
        });
        // The shape of a publish's event insert: one row, on the condition that another row exists.
        Named sql = Named.sql("insert into hot_ids (secret) select secret from hot_probe where secret = :secret");
        OptionalLong known = jdbi.withHandle(h -> PlainJdbc.insertIfAny(h, sql, p -> p.set("secret", "known")));
        OptionalLong unknown = jdbi.withHandle(h -> PlainJdbc.insertIfAny(h, sql, p -> p.set("secret", "unknown")));

        assertTrue(known.isPresent());
        assertEquals(OptionalLong.empty(), unknown, "nothing inserted: no id");
        long stored = jdbi.withHandle(h -> h.createQuery("select id from hot_ids").mapTo(Long.class).one());
        assertEquals(known.getAsLong(), stored, "the id returned is the row's");
        assertThrows(IllegalStateException.class, () -> jdbi.useHandle(h -> PlainJdbc.insert(h, sql, p -> p.set("secret", "unknown"))),
                "insert, unlike insertIfAny, requires its row");
    }

    @Test
    void moreThanOneRowForAOneRowQueryIsRefused() {
        Jdbi jdbi = probeTable();
        jdbi.useHandle(h -> h.execute("insert into hot_probe (id, secret) values (1, 'x'), (2, 'x')"));
        assertThrows(IllegalStateException.class, () -> jdbi.withHandle(h -> PlainJdbc.queryOne(h,
                Named.sql("select id from hot_probe where secret = :secret"), p -> p.set("secret", "x"), r -> r.getInt(1))));
    }
}
