package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import java.util.Set;

/**
 * An authorization request that passed every check of {@link AuthorizationRequests}: the client, its
 * registered redirect URI, the scopes to grant (requested, or the application's), PKCE and prompt.
 */
public record AuthorizationRequest(Application application, String redirectUri, String state, Set<String> scopes,
                                   String codeChallenge, String codeChallengeMethod, String prompt) {
    public boolean promptLogin() { return "login".equals(prompt); }
    public boolean promptConsent() { return "consent".equals(prompt); }
    public boolean promptNone() { return "none".equals(prompt); }
}
