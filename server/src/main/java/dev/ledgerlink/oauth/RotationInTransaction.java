package dev.ledgerlink.oauth;

import dev.ledgerlink.store.GroupCommit;
import java.time.Instant;
import java.util.Optional;

/**
 * A refresh rotation as one transaction (H2, and PostgreSQL's tokens that its one statement did not
 * rotate): read the token, the guards (a refusal writes nothing), use it once with a conditional
 * UPDATE (exactly one of any number of racing requests sees a row count of 1), mint the successor
 * pair in the same grant. Concurrent grants share the commit of that transaction (store/GroupCommit),
 * each under a savepoint of its own and each answered only once the shared commit is durable: on H2
 * a durable commit (one chunk written) was most of a grant's cost.
 */
final class RotationInTransaction implements RefreshRotation {
    private final GroupCommit commits;
    private final TokenService tokens;

    RotationInTransaction(GroupCommit commits, TokenService tokens) {
        this.commits = commits;
        this.tokens = tokens;
    }

    @Override
    public Optional<TokenPair> rotate(TokenFormat.Presented presented, long applicationId, Guards guards) {
        return commits.inTransaction(h -> {
            TokenStore store = new TokenStore(h);
            RefreshTokenRow token = guards.admit(store.refreshToken(presented), applicationId);
            Instant now = tokens.now();
            if (store.useRefreshToken(token.id(), now) != 1) return Optional.<TokenPair>empty();   // a racing request won
            return Optional.of(tokens.mintSuccessor(store, token, now));
        });
    }
}
