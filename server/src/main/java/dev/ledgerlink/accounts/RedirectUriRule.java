package dev.ledgerlink.accounts;

import dev.ledgerlink.net.LoopbackHost;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * The redirect URI rule of decisions.md: absolute https; http only to a loopback host and only in
 * development mode; no query string, no fragment. Matching at authorization time is an exact string
 * comparison with a registered URI, so nothing here normalises.
 */
public final class RedirectUriRule {
    private RedirectUriRule() {}

    /** Empty when the URI may be registered, else what is wrong with it. */
    public static Optional<String> problem(String uri, boolean devMode) {
        if (uri == null || uri.isBlank()) return Optional.of("must not be empty");
        if (uri.length() > 2048) return Optional.of("must be at most 2048 characters");
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            return Optional.of("is not a valid URI");
        }
        if (!parsed.isAbsolute() || parsed.getHost() == null) return Optional.of("must be an absolute URI with a host");
        if (parsed.getRawQuery() != null) return Optional.of("must not have a query string (pass data in state)");
        if (parsed.getRawFragment() != null) return Optional.of("must not have a fragment");
        if (parsed.getRawUserInfo() != null) return Optional.of("must not carry user information");
        String scheme = parsed.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) return Optional.empty();
        if (scheme.equals("http") && LoopbackHost.is(parsed.getHost())) {
            return devMode ? Optional.empty() : Optional.of("must use https (http to a loopback host only in development mode)");
        }
        return Optional.of("must use https");
    }

}
