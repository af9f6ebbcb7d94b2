package dev.ledgerlink.oauth;

import java.util.Optional;

/**
 * PostgreSQL: the common case, a live token of this client issued since V22 (found by id), rotates in
 * one statement instead of a transaction of four (TokenStore.ROTATE_REFRESH_TOKENS: use and mint as
 * data-modifying CTEs, with the conditions the guards check; concurrent grants share one such
 * statement, RotationBatches). Only when it rotates nothing does the transaction run, to refuse with
 * the guards' reason (or, had the token become live meanwhile, which cannot happen, to rotate it after
 * all).
 */
final class RotationInOneStatement implements RefreshRotation {
    private final TokenService tokens;
    private final RotationInTransaction otherwise;

    RotationInOneStatement(TokenService tokens, RotationInTransaction otherwise) {
        this.tokens = tokens;
        this.otherwise = otherwise;
    }

    @Override
    public Optional<TokenPair> rotate(TokenFormat.Presented presented, long applicationId, Guards guards) {
        if (presented instanceof TokenFormat.Selected selected) {
            Optional<TokenPair> rotated = tokens.rotateInOneStatement(selected, applicationId);
            if (rotated.isPresent()) return rotated;
        }
        return otherwise.rotate(presented, applicationId, guards);
    }
}
