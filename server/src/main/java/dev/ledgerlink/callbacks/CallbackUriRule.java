package dev.ledgerlink.callbacks;

import dev.ledgerlink.net.PublicAddressGate;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Which URIs may receive callbacks (decisions.md, "Callbacks"): absolute https of at most 2048
 * characters, without user information or fragment. Whether the target may be called at all (http
 * in development mode, the public-address check outside it) is the one gate's decision,
 * {@link PublicAddressGate}, asked again before every attempt.
 * Returns the reason a URI is refused, or null when it is accepted.
 */
public final class CallbackUriRule {
    public static final int MAX_LENGTH = 2048;

    private final PublicAddressGate gate;

    public CallbackUriRule(PublicAddressGate gate) {
        this.gate = gate;
    }

    public String refusal(String uri) {
        if (uri == null || uri.isBlank()) return "is required";
        if (uri.length() > MAX_LENGTH) return "must be at most " + MAX_LENGTH + " characters";
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            return "is not a valid URI";
        }
        if (!parsed.isAbsolute() || parsed.isOpaque()) return "must be an absolute https URI";
        String scheme = parsed.getScheme().toLowerCase(Locale.ROOT);
        String host = parsed.getHost();
        if (host == null || host.isEmpty()) return "must name a host";
        if (parsed.getRawUserInfo() != null) return "must not contain user information";
        if (parsed.getRawFragment() != null) return "must not contain a fragment";
        if (scheme.equals("http")) return gate.httpRefusal(host).orElse(null);
        if (!scheme.equals("https")) return "must use https";
        return switch (gate.check(host)) {
            case PublicAddressGate.Exempt exempt -> null;
            case PublicAddressGate.Public checked -> null;
            case PublicAddressGate.Unchecked unchecked -> null;
            case PublicAddressGate.Unresolved unresolved -> "names a host that does not resolve";
            case PublicAddressGate.NotPublic notPublic -> "must not point at a private, loopback or link-local address";
        };
    }
}
