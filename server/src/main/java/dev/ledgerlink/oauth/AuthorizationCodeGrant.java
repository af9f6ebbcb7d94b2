package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthError.invalidGrant;
import static dev.ledgerlink.oauth.OAuthError.invalidRequest;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.secrets.Hashes;
import java.time.Duration;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6), for a client already authenticated.
 * One transaction: the guard clauses in the order the RFC checks them, each naming the rule that
 * refused; then, under the (user, application) pair's lock, the code is used (a conditional UPDATE:
 * exactly one winner, never a revoked code) and the pair minted. A second use of a code fails
 * and revokes what the first use issued (RFC 6749 §4.1.2).
 *
 * <p>Why the lock comes before the use: a disconnect (ConnectedApps) takes the same lock, revokes the
 * pair's codes not yet exchanged and then the tokens of its grants. An exchange that used its code
 * first and waited for the lock afterwards could commit its tokens after the disconnect had looked for
 * them, and they stayed live. Now an exchange holding the lock has either seen a disconnect's
 * revocation (its use finds nothing to use) or is seen by it (the disconnect waits, then revokes what
 * it issued). Same statements as before, in another order: no round trip more.
 */
public final class AuthorizationCodeGrant {
    private final Jdbi jdbi;
    private final TokenService tokens;
    private final AuditLog audit;
    /** "(codes live 10 minutes)": how long codes live here (oauth.code-ttl), for the expiry refusal. */
    private final String codesLive;

    public AuthorizationCodeGrant(Jdbi jdbi, TokenService tokens, AuditLog audit, Duration codeTtl) {
        this.jdbi = jdbi;
        this.tokens = tokens;
        this.audit = audit;
        this.codesLive = "(codes live " + inWords(codeTtl) + ")";
    }

    /** "10 minutes", "1 minute 30 seconds", "2 hours": the largest units first, a unit only when it counts. */
    static String inWords(Duration d) {
        StringBuilder words = new StringBuilder();
        append(words, d.toHours(), "hour");
        append(words, d.toMinutesPart(), "minute");
        append(words, d.toSecondsPart(), "second");
        append(words, d.toMillisPart(), "millisecond");
        return words.isEmpty() ? "0 seconds" : words.toString();
    }

    private static void append(StringBuilder words, long n, String unit) {
        if (n == 0) return;
        if (!words.isEmpty()) words.append(' ');
        words.append(n).append(' ').append(unit).append(n == 1 ? "" : "s");
    }

    public TokenResponse exchange(Application client, String code, String redirectUri, String codeVerifier) {
        if (code == null || code.isEmpty()) throw invalidRequest("code is required for grant_type authorization_code");
        if (redirectUri == null || redirectUri.isEmpty()) throw invalidRequest("redirect_uri is required: the one the authorization request used");
        if (code.length() > TokenService.MAX_TOKEN_LENGTH) throw invalidGrant("authorization code is unknown");

        // One transaction: read, the guard clauses (a refusal writes nothing), the pair's lock, use, mint.
        try {
            return TokenResponse.of(jdbi.inTransaction(h -> {
                AuthorizationCodeStore codes = h.attach(AuthorizationCodeStore.class);
                AuthorizationCodeRow row = codes.find(Hashes.sha256Hex(code)).orElseThrow(() -> invalidGrant("authorization code is unknown"));
                if (row.applicationId() != client.id()) throw invalidGrant("authorization code was issued to another client");
                if (row.usedAt() != null) throw new Reused(row);
                if (row.revokedAt() != null) throw revoked(row);
                if (!tokens.now().isBefore(row.expiresAt())) throw invalidGrant("code expired at " + row.expiresAt() + " " + codesLive);
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
                Instant now = tokens.now();
                tokens.lockPair(h, row.userId(), row.applicationId(), now);
                if (codes.use(row.id(), now) != 1) {
                    // used meanwhile by a racing request, or revoked by a disconnect that committed while we waited
                    AuthorizationCodeRow current = codes.byId(row.id()).orElse(row);
                    if (current.usedAt() == null && current.revokedAt() != null) throw revoked(current);
                    throw new Reused(row);
                }
                return tokens.issueForLockedPair(h, row.userId(), row.applicationId(), Scopes.parse(row.scopes()), row.id(), now);
            }));
        } catch (Reused r) {
            throw reused(client, r.row);
        }
    }

    /** The user disconnected the application (ConnectedApps) before this code was exchanged. */
    private static OAuthError revoked(AuthorizationCodeRow row) {
        return invalidGrant("authorization code was revoked at " + row.revokedAt() + ": the user disconnected the application");
    }

    /** Leaves the reading transaction (rolled back: it wrote nothing) so the reuse rule can act in its own. */
    private static final class Reused extends RuntimeException {
        final AuthorizationCodeRow row;

        Reused(AuthorizationCodeRow row) {
            super(null, null, false, false);
            this.row = row;
        }
    }

    /** What the reuse rule did: the first use's time, and its grant with how many tokens it ended. */
    private record Revoked(Instant usedAt, Long grantId, int tokens) {}

    /**
     * The code was used before (or by a racing request just now): end what that use issued. Every
     * reuse is an audit line, written once the revocation has committed.
     */
    private OAuthError reused(Application client, AuthorizationCodeRow row) {
        Revoked r = jdbi.inTransaction(h -> {
            Long grantId = h.attach(GrantStore.class).grantOfCode(row.id()).orElse(null);
            int revoked = grantId == null ? 0 : tokens.revokeGrant(h, grantId);
            Instant usedAt = row.usedAt() != null ? row.usedAt() : h.attach(AuthorizationCodeStore.class).usedAt(row.id()).orElse(null);
            return new Revoked(usedAt, grantId, revoked);
        });
        audit.record(AuditLog.Event.AUTHORIZATION_CODE_REUSED, "code_id", row.id(), "grant_id", r.grantId(), "user_id", row.userId(),
                "application_id", row.applicationId(), "client_id", client.clientId(),
                "used_at", r.usedAt() == null ? null : r.usedAt().toString(), "tokens_revoked", r.tokens());
        return invalidGrant("authorization code was already used" + (r.usedAt() == null ? "" : " at " + r.usedAt())
                + "; the tokens issued with it are now revoked");
    }
}
