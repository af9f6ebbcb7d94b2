package dev.ledgerlink.oauth;

import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.GroupCommit;
import java.util.Optional;

/**
 * How a refresh grant uses the presented refresh token once and mints its successor pair in the same
 * grant: the seam between the grant's rules (RefreshTokenGrant: the guards and the replay rule) and
 * the two ways the databases do it fastest. On H2 one transaction reads the token, lets the guards
 * look at it, uses it with a conditional UPDATE and mints, sharing its durable commit with concurrent
 * grants ({@link RotationInTransaction}); on PostgreSQL one statement does all of it for a group of
 * concurrent grants, and only a token it does not rotate takes that transaction, so the guards can
 * say why ({@link RotationInOneStatement}). Either way exactly one of any number of racing requests
 * for one token rotates it.
 */
sealed interface RefreshRotation permits RotationInTransaction, RotationInOneStatement {

    /** The grant's guards: the stored token as found, or the refusal thrown. */
    @FunctionalInterface
    interface Guards {
        /** {@code found} is the presented token's row, if it is one of ours and its secret matches. */
        RefreshTokenRow admit(Optional<RefreshTokenRow> found, long applicationId);
    }

    /**
     * Rotates the presented token of the client {@code applicationId} if the guards admit its row;
     * empty when a racing request used it between the read and the update (the caller reads it
     * again to say what it is now).
     */
    Optional<TokenPair> rotate(TokenFormat.Presented token, long applicationId, Guards guards);

    /** The database's way. */
    static RefreshRotation of(Database.Dialect dialect, GroupCommit commits, TokenService tokens) {
        RotationInTransaction inTransaction = new RotationInTransaction(commits, tokens);
        return dialect == Database.Dialect.POSTGRESQL ? new RotationInOneStatement(tokens, inTransaction) : inTransaction;
    }
}
