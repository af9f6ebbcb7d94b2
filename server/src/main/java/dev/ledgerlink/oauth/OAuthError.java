package dev.ledgerlink.oauth;

/**
 * A refusal at the token or revocation endpoint, rendered as the RFC 6749 §5.2 body
 * {@code {"error", "error_description"}}. The description never contains a secret.
 */
public final class OAuthError extends RuntimeException {
    private final String error;
    private final int status;
    private final boolean basicChallenge;

    private OAuthError(String error, String description, int status, boolean basicChallenge) {
        super(description, null, false, false);
        this.error = error;
        this.status = status;
        this.basicChallenge = basicChallenge;
    }

    public static OAuthError invalidRequest(String description) {
        return new OAuthError("invalid_request", description, 400, false);
    }

    /** 401; {@code viaBasic} when the client tried HTTP Basic, which then gets a Basic challenge (RFC 6749 §5.2). */
    public static OAuthError invalidClient(String description, boolean viaBasic) {
        return new OAuthError("invalid_client", description, 401, viaBasic);
    }

    public static OAuthError invalidGrant(String description) {
        return new OAuthError("invalid_grant", description, 400, false);
    }

    public static OAuthError unsupportedGrantType(String description) {
        return new OAuthError("unsupported_grant_type", description, 400, false);
    }

    public String error() { return error; }
    public String description() { return getMessage(); }
    public int status() { return status; }
    public boolean basicChallenge() { return basicChallenge; }
}
