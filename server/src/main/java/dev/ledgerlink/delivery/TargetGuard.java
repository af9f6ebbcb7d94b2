package dev.ledgerlink.delivery;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Outside dev mode, webhooks must not reach inside the network (SSRF): a target that resolves to a
 * private, loopback, link-local, multicast, unspecified, CGNAT, unique-local or other non-public
 * address is refused. Every resolved address is checked right before the request; for http the
 * request then goes to the checked address itself (Host header kept), so a DNS answer that changes
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
            if (!isPublic(a)) throw new RefusedTarget("the host " + host + " resolves to a non-public address (" + a.getHostAddress() + ")");
        }
        return all[0];
    }

    static boolean isPublic(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
                || a.isMulticastAddress()) return false;
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int b0 = b[0] & 0xFF, b1 = b[1] & 0xFF;
            if (b0 == 0) return false;                                  // "this network"
            if (b0 == 100 && b1 >= 64 && b1 <= 127) return false;      // CGNAT 100.64/10
            if (b0 == 192 && b1 == 0 && (b[2] & 0xFF) == 0) return false; // IETF protocol assignments
            if (b0 == 198 && (b1 == 18 || b1 == 19)) return false;     // benchmarking
            if (b0 >= 240) return false;                               // reserved and broadcast
            return true;
        }
        if (a instanceof Inet6Address) {
            int b0 = b[0] & 0xFF;
            if ((b0 & 0xFE) == 0xFC) return false;                     // unique local fc00::/7
            if (b0 == 0x20 && (b[1] & 0xFF) == 0x01 && (b[2] & 0xFF) == 0x0d && (b[3] & 0xFF) == 0xb8) return false; // documentation
            boolean v4Mapped = true;
            for (int i = 0; i < 10; i++) v4Mapped &= b[i] == 0;
            if (v4Mapped && (b[10] & 0xFF) == 0xFF && (b[11] & 0xFF) == 0xFF) {
                try {
                    return isPublic(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException e) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    static final class RefusedTarget extends Exception {
        RefusedTarget(String message) {
            super(message, null, false, false);
        }
    }
}
