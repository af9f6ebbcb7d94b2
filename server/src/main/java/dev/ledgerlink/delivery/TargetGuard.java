package dev.ledgerlink.delivery;

import dev.ledgerlink.net.PublicAddresses;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Outside dev mode, webhooks must not reach inside the network (SSRF): a target that resolves to a
 * non-public address ({@link PublicAddresses}, the same rule as at registration) is refused. Every
 * resolved address is checked right before the request; for http the request then goes to the checked address itself (Host header kept), so a DNS answer that changes
 * between check and connect (rebinding) cannot redirect it. For https the hostname must stay in the
 * URI for TLS, so a rebinding between the check and the client's own lookup remains possible; the
 * window is milliseconds (documented in docs/delivery.md).
 */
final class TargetGuard {
    private TargetGuard() {}

    /** The address to connect to, or an exception whose message says why the target is refused. */
    static InetAddress check(URI uri) throws RefusedTarget {
        String host = uri.getHost();
        if (host == null) throw new RefusedTarget("the callback URI has no host");
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new RefusedTarget("the host " + host + " does not resolve");
        }
        for (InetAddress a : all) {
            var special = PublicAddresses.specialPurpose(a);
            if (special.isPresent()) {
                throw new RefusedTarget("the host " + host + " resolves to a non-public address (" + a.getHostAddress() + ", " + special.get() + ")");
            }
        }
        return all[0];
    }

    static final class RefusedTarget extends Exception {
        RefusedTarget(String message) {
            super(message, null, false, false);
        }
    }
}
