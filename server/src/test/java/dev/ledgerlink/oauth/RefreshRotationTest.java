package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.ledgerlink.store.Database;
import org.junit.jupiter.api.Test;

/** Each database gets its way of rotating (the rotations themselves: RefreshTokenGrantTest, RefreshRaceTest, RotationBatchesTest). */
class RefreshRotationTest {
    @Test
    void postgresRotatesInOneStatementAndH2InATransaction() {
        assertInstanceOf(RotationInOneStatement.class, RefreshRotation.of(Database.Dialect.POSTGRESQL, null, null));
        assertInstanceOf(RotationInTransaction.class, RefreshRotation.of(Database.Dialect.H2, null, null));
    }
}
