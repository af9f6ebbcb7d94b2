package dev.ledgerlink.client;

/** The token or revocation endpoint refused: RFC 6749 §5.2 {@code error} and {@code error_description}. */
public final class OAuthException extends RuntimeException {
    private final int status;
    private final String error;
    private final String description;

    public OAuthException(int status, String error, String description) {
        super(error + (description == null || description.isEmpty() ? "" : ": " + description));
        this.status = status;
        this.error = error;
        this.description = description;
    }

    public int status() { return status; }
    /** invalid_request, invalid_client, invalid_grant, unsupported_grant_type, … */
    public String error() { return error; }
    public String description() { return description; }
}
