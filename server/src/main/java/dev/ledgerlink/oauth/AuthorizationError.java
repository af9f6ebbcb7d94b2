package dev.ledgerlink.oauth;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A refused authorization request (RFC 6749 §4.1.2.1). When the client or its redirect URI cannot
 * be trusted, the user sees an error page and is never redirected ({@link #redirectUri} is null);
 * otherwise the browser goes back to the client with {@code error}, a description and {@code state}.
 */
public final class AuthorizationError extends RuntimeException {
    private final String error;
    private final String redirectUri;
    private final String state;

    private AuthorizationError(String error, String description, String redirectUri, String state) {
        super(description, null, false, false);
        this.error = error;
        this.redirectUri = redirectUri;
        this.state = state;
    }

    /** Shown on our own page: unknown client, or a redirect_uri not registered for it. */
    public static AuthorizationError page(String description) {
        return new AuthorizationError("invalid_request", description, null, null);
    }

    public static AuthorizationError redirect(String redirectUri, String state, String error, String description) {
        return new AuthorizationError(error, description, redirectUri, state);
    }

    public boolean redirects() { return redirectUri != null; }
    public String error() { return error; }
    public String description() { return getMessage(); }

    /** The client's redirect URI with error, error_description and state appended. */
    public String location() {
        StringBuilder url = new StringBuilder(redirectUri).append(redirectUri.contains("?") ? '&' : '?')
                .append("error=").append(encode(error))
                .append("&error_description=").append(encode(getMessage()));
        if (state != null) url.append("&state=").append(encode(state));
        return url.toString();
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
