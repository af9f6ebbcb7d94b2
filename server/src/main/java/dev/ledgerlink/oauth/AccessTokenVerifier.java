package dev.ledgerlink.oauth;

import java.util.Optional;

/** Resolves a bearer access token to its principal; empty for unknown, expired or revoked tokens. */
public interface AccessTokenVerifier {
    Optional<TokenPrincipal> verify(String accessToken);
}
