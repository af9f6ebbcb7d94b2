package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * What the delivery claim may shrug off ({@link Deadlocks#isConflict}): the database's own answers
 * when two transactions want the same rows, on H2 and PostgreSQL; any other failure is not one.
 */
@LedgerlinkTest
class DeadlocksTest {
    TestServer server;

    @Test
    void aUniqueKeyTakenMeanwhileOrARowLockedElsewhereIsAConflict() {
        Jdbi jdbi = server.services().database().jdbi();
        jdbi.useHandle(h -> {
            h.execute("create table conflict_probe (id integer primary key, n integer)");
            h.execute("insert into conflict_probe (id, n) values (1, 0)");
        });
        RuntimeException duplicate = assertThrows(RuntimeException.class,
                () -> jdbi.useHandle(h -> h.execute("insert into conflict_probe (id, n) values (1, 1)")));
        assertTrue(Deadlocks.isConflict(duplicate), duplicate.toString());

        try (Handle holder = jdbi.open()) {
            holder.begin();
            holder.execute("update conflict_probe set n = 2 where id = 1");
            RuntimeException locked = assertThrows(RuntimeException.class, () -> jdbi.useTransaction(h ->
                    h.createQuery("select n from conflict_probe where id = 1 for update nowait").mapTo(Integer.class).one()));
            assertTrue(Deadlocks.isConflict(locked), locked.toString());
            holder.rollback();
        }
    }

    @Test
    void anyOtherFailureIsNoConflict() {
        Jdbi jdbi = server.services().database().jdbi();
        RuntimeException missing = assertThrows(RuntimeException.class,
                () -> jdbi.useHandle(h -> h.execute("update no_such_table set x = 1")));
        assertFalse(Deadlocks.isConflict(missing), missing.toString());
        RuntimeException notNull = assertThrows(RuntimeException.class,
                () -> jdbi.useHandle(h -> h.execute("insert into users (email) values (null)")));
        assertFalse(Deadlocks.isConflict(notNull), notNull.toString());
        assertFalse(Deadlocks.isConflict(new IllegalStateException("not a database error")));
    }
}
