package dev.ledgerlink.oauth;

import org.jdbi.v3.core.Jdbi;

/**
 * Test fixture: the token string a client holds for a token row whose secret the test knows (a row a
 * test wrote in bulk, as the benchmark's filled database does), in this installation's format.
 */
public final class TokenStrings {
    private TokenStrings() {}

    /** The refresh token of row {@code id} whose token_hash is the SHA-256 of {@code secret}. */
    public static String refreshToken(Jdbi jdbi, long id, byte[] secret) {
        return TokenFormat.load(jdbi).encode(TokenFormat.Kind.REFRESH, id, secret);
    }
}
