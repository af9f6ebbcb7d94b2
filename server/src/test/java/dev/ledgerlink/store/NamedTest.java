package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A statement with named parameters becomes the text JDBC prepares: every name a '?', casts and quoted text left alone. */
class NamedTest {
    @Test
    void eachNamedParameterBecomesAPositionalOneAndARepeatedNameKeepsItsPlaces() {
        Named n = Named.sql("update t set a = :now, b = :id where c <= :now and d = 'x:y' and e = :id_2");
        assertEquals("update t set a = ?, b = ? where c <= ? and d = 'x:y' and e = ?", n.jdbc());
        assertEquals("update t set a = :now, b = :id where c <= :now and d = 'x:y' and e = :id_2", n.text());
    }

    @Test
    void postgresCastsAndQuotedColonsAreNotParameters() {
        Named n = Named.sql("select * from unnest(:ids::bigint[], :at::text[]::timestamptz[]) where x = ':not' and y = timestamp '9999-12-31 00:00:00+00'");
        assertEquals("select * from unnest(?::bigint[], ?::text[]::timestamptz[]) where x = ':not' and y = timestamp '9999-12-31 00:00:00+00'",
                n.jdbc());
    }

    @Test
    void aPositionalParameterIsRefusedSoTheTwoKindsNeverMix() {
        assertThrows(IllegalArgumentException.class, () -> Named.sql("select * from t where a = :a and b = ?"));
        assertEquals("select '?' from t where a = ?", Named.sql("select '?' from t where a = :a").jdbc(), "a quoted ? is text");
    }
}
