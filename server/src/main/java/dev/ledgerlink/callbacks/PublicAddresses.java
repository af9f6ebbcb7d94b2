package dev.ledgerlink.callbacks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/** Whether an address is on the public internet: not loopback, private, link-local, CGNAT, multicast or reserved. */
final class PublicAddresses {
    private PublicAddresses() {}

    static boolean isPublic(InetAddress a) {
        if (a.isLoopbackAddress() || a.isAnyLocalAddress() || a.isLinkLocalAddress()
                || a.isSiteLocalAddress() || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int first = b[0] & 0xff, second = b[1] & 0xff;
            if (first == 0) return false;                                  // 0.0.0.0/8 "this network"
            if (first == 100 && second >= 64 && second <= 127) return false; // 100.64.0.0/10 carrier-grade NAT
            if (first == 192 && second == 0 && (b[2] & 0xff) == 0) return false; // 192.0.0.0/24 protocol assignments
            if (first == 198 && (second == 18 || second == 19)) return false;  // 198.18.0.0/15 benchmarking
            return first < 240;                                            // 240.0.0.0/4 reserved, broadcast
        }
        if (a instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) return false;                       // fc00::/7 unique local
            if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0) return false; // fec0::/10 old site-local
            boolean v4Mapped = true;                                       // ::ffff:a.b.c.d: judge the IPv4 address
            for (int i = 0; i < 10; i++) v4Mapped &= b[i] == 0;
            if (v4Mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPublic(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (java.net.UnknownHostException impossible) {
                    return false;
                }
            }
        }
        return true;
    }
}
