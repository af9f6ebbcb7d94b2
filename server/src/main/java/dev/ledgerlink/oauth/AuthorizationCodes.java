package dev.ledgerlink.oauth;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.RandomTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/** Issues authorization codes: 256 random bits, stored as SHA-256, bound to client, user, scopes, redirect URI and PKCE. */
public final class AuthorizationCodes {
    private final Jdbi jdbi;
    private final Clock clock;
    private final Duration ttl;

    public AuthorizationCodes(Jdbi jdbi, Clock clock, Duration ttl) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.ttl = ttl;
    }

    public String issue(long userId, AuthorizationRequest request) {
        String code = RandomTokens.urlSafe(32);
        Instant now = DbTime.now(clock);
        jdbi.useExtension(AuthorizationCodeStore.class, s -> s.insert(Hashes.sha256Hex(code), request.application().id(), userId,
                Scopes.join(request.scopes()), request.redirectUri(), request.codeChallenge(), request.codeChallengeMethod(),
                now, now.plus(ttl)));
        return code;
    }
}
