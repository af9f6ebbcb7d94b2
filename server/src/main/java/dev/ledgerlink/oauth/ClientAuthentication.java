package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3.1): client_id and
 * client_secret in the body, or HTTP Basic. SHA-256 and a constant-time comparison
 * ({@link ApplicationService#authenticate}); until it succeeds, errors say nothing about which part was wrong.
 */
public final class ClientAuthentication {
    /** What the request presented; {@code viaBasic} when it came in an Authorization: Basic header. */
    public record Credentials(String clientId, String clientSecret, boolean viaBasic) {}

    private final ApplicationService applications;

    public ClientAuthentication(ApplicationService applications) {
        this.applications = applications;
    }

    public Application authenticate(Credentials c) {
        if (c.clientId() == null || c.clientId().isEmpty() || c.clientSecret() == null || c.clientSecret().isEmpty()) {
            throw OAuthError.invalidClient("client authentication is required: client_id and client_secret in the body, or HTTP Basic", c.viaBasic());
        }
        return applications.authenticate(c.clientId(), c.clientSecret())
                .orElseThrow(() -> OAuthError.invalidClient("client authentication failed: unknown client_id or wrong client_secret", c.viaBasic()));
    }
}
