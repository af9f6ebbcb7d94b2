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
            assertEquals(1, PlainJdbc.update(h, "insert into hot_probe (id, secret, at) values (?, ?, ?)", s -> {
                s.setInt(1, 1);
                s.setString(2, "a");
                TimeMapping.bind(s, 3, at);
            }));
            h.rollback();
        });
        assertEquals(Optional.empty(), jdbi.withHandle(h -> PlainJdbc.queryOne(h, "select at from hot_probe where id = ?",
                s -> s.setInt(1, 1), r -> TimeMapping.read(r, 1))), "rolled back with the handle's transaction");

        jdbi.useHandle(h -> PlainJdbc.update(h, "insert into hot_probe (id, secret, at) values (?, ?, ?)", s -> {
            s.setInt(1, 1);
            s.setString(2, "a");
            TimeMapping.bind(s, 3, at);
        }));
        assertEquals(Optional.of(at), jdbi.withHandle(h -> PlainJdbc.queryOne(h, "select at from hot_probe where id = ?",
                s -> s.setInt(1, 1), r -> TimeMapping.read(r, "at"))));
        assertEquals(at, jdbi.withHandle(h -> h.createQuery("select at from hot_probe where id = 1").mapTo(Instant.class).one()),
                "JDBI's registered mapping reads the same instant");
    }

    @Test
    void aNamedStatementBindsEachValueToEveryPlaceItsNameAppears() {
        Jdbi jdbi = probeTable();
        Instant at = DbTime.now(java.time.Clock.systemUTC());
        Named insert = Named.sql("insert into hot_probe (id, secret, at) values (:id, :secret, :at)");
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
        PlainJdbc.Binder row = s -> {
            s.setInt(1, 7);
            s.setString(2, secret);
            s.setObject(3, null);
        };
        jdbi.useHandle(h -> PlainJdbc.update(h, "insert into hot_probe (id, secret, at) values (?, ?, ?)", row));
        UnableToExecuteStatementException duplicate = assertThrows(UnableToExecuteStatementException.class,
                () -> jdbi.useHandle(h -> PlainJdbc.update(h, "insert into hot_probe (id, secret, at) values (?, ?, ?)", row)));
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
        String conditional = "update hot_probe set secret = ? where id = ? and secret = ?";
        int[] counts = jdbi.inTransaction(h -> PlainJdbc.batch(h, conditional,
                List.of(new Object[] {"x", 1, "a"}, new Object[] {"y", 2, "not b"}, new Object[] {"z", 3, "c"}), (st, row) -> {
                    st.setString(1, (String) row[0]);
                    st.setInt(2, (Integer) row[1]);
                    st.setString(3, (String) row[2]);
                }));
        assertArrayEquals(new int[] {1, 0, 0}, counts, "what each row's condition applied, in the rows' order");
        assertArrayEquals(new int[0], jdbi.withHandle(h -> PlainJdbc.batch(h, conditional, List.<Object[]>of(), (st, row) -> {
            throw new AssertionError("no row to bind");
        })));
        assertThrows(UnableToExecuteStatementException.class, () -> jdbi.useTransaction(h -> PlainJdbc.batch(h,
                "insert into hot_probe (id, secret) values (?, 'dup')", List.of(5, 1), (st, id) -> st.setInt(1, id))),
                "a row of the batch that fails fails the batch, as JDBI's would");
        assertEquals(Optional.empty(), jdbi.withHandle(h -> PlainJdbc.queryOne(h, "select id from hot_probe where id = ?",
                st -> st.setInt(1, 5), r -> r.getInt(1))), "and its transaction keeps none of it");
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
        String sql = "insert into hot_ids (secret) select secret from hot_probe where secret = ?";
        OptionalLong known = jdbi.withHandle(h -> PlainJdbc.insertIfAny(h, sql, st -> st.setString(1, "known")));
        OptionalLong unknown = jdbi.withHandle(h -> PlainJdbc.insertIfAny(h, sql, st -> st.setString(1, "unknown")));

        assertTrue(known.isPresent());
        assertEquals(OptionalLong.empty(), unknown, "nothing inserted: no id");
        long stored = jdbi.withHandle(h -> h.createQuery("select id from hot_ids").mapTo(Long.class).one());
        assertEquals(known.getAsLong(), stored, "the id returned is the row's");
        assertThrows(IllegalStateException.class, () -> jdbi.useHandle(h -> PlainJdbc.insert(h, sql, st -> st.setString(1, "unknown"))),
                "insert, unlike insertIfAny, requires its row");
    }

    @Test
    void moreThanOneRowForAOneRowQueryIsRefused() {
        Jdbi jdbi = probeTable();
        jdbi.useHandle(h -> h.execute("insert into hot_probe (id, secret) values (1, 'x'), (2, 'x')"));
        assertThrows(IllegalStateException.class, () -> jdbi.withHandle(h -> PlainJdbc.queryOne(h,
                "select id from hot_probe where secret = ?", s -> s.setString(1, "x"), r -> r.getInt(1))));
    }
}
