package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.secrets.Hashes;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6), for a client already authenticated.
 * Guard clauses in the order the RFC checks them, each naming the rule that refused; then one
 * transaction uses the code (exactly one winner) and mints the pair. A second use of a code fails
 * and revokes what the first use issued (RFC 6749 §4.1.2).
 */
public final class AuthorizationCodeGrant {
    private final Jdbi jdbi;
    private final TokenService tokens;

    public AuthorizationCodeGrant(Jdbi jdbi, TokenService tokens) {
        this.jdbi = jdbi;
        this.tokens = tokens;
    }

    public TokenResponse exchange(Application client, String code, String redirectUri, String codeVerifier) {
        if (code == null || code.isEmpty()) throw invalidRequest("code is required for grant_type authorization_code");
        if (redirectUri == null || redirectUri.isEmpty()) throw invalidRequest("redirect_uri is required: the one the authorization request used");
        if (code.length() > TokenService.MAX_TOKEN_LENGTH) throw invalidGrant("authorization code is unknown");

        AuthorizationCodeRow row = jdbi.withExtension(AuthorizationCodeStore.class, s -> s.find(Hashes.sha256Hex(code)))
                .orElseThrow(() -> invalidGrant("authorization code is unknown"));
        if (row.applicationId() != client.id()) throw invalidGrant("authorization code was issued to another client");
        if (row.usedAt() != null) throw reused(row);
        if (!tokens.now().isBefore(row.expiresAt())) throw invalidGrant("code expired at " + row.expiresAt() + " (codes live 10 minutes)");
        if (!row.redirectUri().equals(redirectUri)) throw invalidGrant("redirect_uri differs from the authorization request");
        if (row.codeChallenge() == null && codeVerifier != null) {
            throw invalidGrant("code_verifier was sent but the authorization request carried no code_challenge");
        }
        if (row.codeChallenge() != null && (codeVerifier == null || codeVerifier.isEmpty())) {
            throw invalidGrant("code_verifier is required: the authorization request carried a code_challenge");
        }
        if (row.codeChallenge() != null && !Pkce.verifies(codeVerifier, row.codeChallenge(), row.codeChallengeMethod())) {
            throw invalidGrant("code_verifier does not match the code_challenge (" + row.codeChallengeMethod() + ")");
        }

        Optional<TokenPair> pair = jdbi.inTransaction(h -> {
            if (h.attach(AuthorizationCodeStore.class).use(row.id(), tokens.now()) != 1) return Optional.<TokenPair>empty();
            return Optional.of(tokens.issueForNewGrant(h, row.userId(), row.applicationId(), Scopes.parse(row.scopes()), row.id()));
        });
        if (pair.isEmpty()) throw reused(row);
        return TokenResponse.of(pair.get());
    }

    /** The code was used before (or by a racing request just now): end what that use issued. */
    private OAuthError reused(AuthorizationCodeRow row) {
        Instant usedAt = jdbi.inTransaction(h -> {
            h.attach(TokenStore.class).grantOfCode(row.id()).ifPresent(grantId -> tokens.revokeGrant(h, grantId));
            return row.usedAt() != null ? row.usedAt() : h.attach(AuthorizationCodeStore.class).usedAt(row.id()).orElse(null);
        });
        return invalidGrant("authorization code was already used" + (usedAt == null ? "" : " at " + usedAt)
                + "; the tokens issued with it are now revoked");
    }
}
