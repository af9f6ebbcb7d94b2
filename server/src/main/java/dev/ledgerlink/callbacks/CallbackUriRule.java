package dev.ledgerlink.callbacks;

import dev.ledgerlink.net.LoopbackHost;
import dev.ledgerlink.net.PublicAddresses;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Which URIs may receive callbacks (decisions.md, "Callbacks"): absolute https of at most 2048
 * characters; http only to a loopback host and only in development mode. Outside development mode
 * the target must also be a public address, checked on literal IPs and on every address the host
 * name resolves to, so the service cannot be pointed at its own network (SSRF).
 * Returns the reason a URI is refused, or null when it is accepted.
 */
public final class CallbackUriRule {
    public static final int MAX_LENGTH = 2048;

    /** Name resolution, replaceable so tests decide what a host name resolves to. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final boolean devMode;
    private final Resolver resolver;

    public CallbackUriRule(boolean devMode, Resolver resolver) {
        this.devMode = devMode;
        this.resolver = resolver;
    }

    public static CallbackUriRule system(boolean devMode) {
        return new CallbackUriRule(devMode, InetAddress::getAllByName);
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
        String bareHost = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (scheme.equals("http")) {
            if (!devMode) return "must use https";
            return LoopbackHost.is(bareHost) ? null : "must use https (http is allowed only to loopback hosts in development mode)";
        }
        if (!scheme.equals("https")) return "must use https";
        if (devMode) return null;
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(bareHost);
        } catch (UnknownHostException e) {
            return "names a host that does not resolve";
        }
        if (addresses.length == 0) return "names a host that does not resolve";
        for (InetAddress a : addresses) {
            if (!PublicAddresses.isPublic(a)) return "must not point at a private, loopback or link-local address";
        }
        return null;
    }
}
