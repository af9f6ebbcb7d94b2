package dev.ledgerlink.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CausesTest {
    @Test
    void anSqlStateIsFoundUnderTheWrappersOfThePoolAndJdbi() {
        var sql = new SQLException("duplicate key", "23505");
        var wrapped = new IllegalStateException("jdbi", new RuntimeException("pool", sql));
        assertTrue(Causes.hasSqlState(wrapped, Set.of("23505")));
        assertFalse(Causes.hasSqlState(wrapped, Set.of("40001")));
        assertFalse(Causes.hasSqlState(new RuntimeException(new SQLException("no state")), Set.of("23505")));
        assertSame(sql, Causes.root(wrapped));
        assertEquals(3, Causes.of(wrapped).count());
    }

    @Test
    void aCycleInTheChainEndsTheWalk() {
        var a = new RuntimeException("a");
        var b = new RuntimeException("b", a);
        a.initCause(b);   // a -> b -> a -> ...
        assertEquals(64, Causes.of(a).count());
        assertFalse(Causes.hasSqlState(a, Set.of("23505")));
    }
}
