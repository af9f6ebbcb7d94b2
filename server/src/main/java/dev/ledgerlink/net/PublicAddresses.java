package dev.ledgerlink.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Whether an address is on the public internet: the one rule behind callback registration
 * (callbacks.CallbackUriRule) and the check of every address a webhook connects to (the
 * {@link PublicAddressGate}, asked by delivery.DeliverySender's resolver), so neither lets a webhook
 * reach inside a network (SSRF). Pure code, no lookups.
 *
 * <p>Not public: every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890
 * and successors) whether or not the registry calls parts of it globally reachable, plus multicast.
 * IPv6 forms that carry an IPv4 address (IPv4-mapped {@code ::ffff:0:0/96}, IPv4-compatible
 * {@code ::/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by the IPv4 address
 * they carry, so {@code 64:ff9b::10.0.0.1} is as private as {@code 10.0.0.1}; Teredo lies inside
 * {@code 2001::/23} and is refused with it.
 */
public final class PublicAddresses {
    private PublicAddresses() {}

    /** One special-purpose block: prefix, length in bits, and its registry name (for messages and tests). */
    private record Block(byte[] prefix, int bits, String name) {
        boolean contains(byte[] address) {
            if (address.length != prefix.length) return false;
            int full = bits / 8, rest = bits % 8;
            for (int i = 0; i < full; i++) if (address[i] != prefix[i]) return false;
            if (rest == 0) return true;
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[full] & mask) == (prefix[full] & mask);
        }
    }

    private static final List<Block> IPV4 = List.of(
            block("0.0.0.0", 8, "this network"),
            block("10.0.0.0", 8, "private-use"),
            block("100.64.0.0", 10, "shared address space (carrier-grade NAT)"),
            block("127.0.0.0", 8, "loopback"),
            block("169.254.0.0", 16, "link-local"),
            block("172.16.0.0", 12, "private-use"),
            block("192.0.0.0", 24, "IETF protocol assignments"),
            block("192.0.2.0", 24, "documentation (TEST-NET-1)"),
            block("192.31.196.0", 24, "AS112-v4"),
            block("192.52.193.0", 24, "AMT"),
            block("192.88.99.0", 24, "deprecated 6to4 relay anycast"),
            block("192.168.0.0", 16, "private-use"),
            block("192.175.48.0", 24, "direct delegation AS112 service"),
            block("198.18.0.0", 15, "benchmarking"),
            block("198.51.100.0", 24, "documentation (TEST-NET-2)"),
            block("203.0.113.0", 24, "documentation (TEST-NET-3)"),
            block("224.0.0.0", 4, "multicast"),
            block("255.255.255.255", 32, "limited broadcast"),
            block("240.0.0.0", 4, "reserved"));

    private static final List<Block> IPV6 = List.of(
            block("::1", 128, "loopback"),
            block("::", 128, "unspecified"),
            block("64:ff9b:1::", 48, "IPv4-IPv6 translation, local use"),
            block("100::", 64, "discard-only"),
            block("100:0:0:1::", 64, "dummy prefix"),
            block("2001::", 23, "IETF protocol assignments (Teredo included)"),
            block("2001:db8::", 32, "documentation"),
            block("2620:4f:8000::", 48, "direct delegation AS112 service"),
            block("3fff::", 20, "documentation"),
            block("5f00::", 16, "segment routing (SRv6) SIDs"),
            block("fc00::", 7, "unique-local"),
            block("fe80::", 10, "link-local"),
            block("fec0::", 10, "site-local (deprecated)"),
            block("ff00::", 8, "multicast"));

    public static boolean isPublic(InetAddress address) {
        return specialPurpose(address).isEmpty();
    }

    /** The registry name of the special-purpose block holding the address ("private-use", "loopback", ...), if any. */
    public static Optional<String> specialPurpose(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) return find(IPV4, b);
        if (!(address instanceof Inet6Address)) return Optional.of("not an IP address");
        Optional<String> own = find(IPV6, b);
        if (own.isPresent()) return own;
        Optional<byte[]> carried = carriedIpv4(b);
        if (carried.isPresent()) {
            return find(IPV4, carried.get()).map(name -> name + ", carried in an IPv6 address");
        }
        return Optional.empty();
    }

    /** The IPv4 address an IPv6 one carries: IPv4-mapped, IPv4-compatible, NAT64 well-known prefix, 6to4. */
    private static Optional<byte[]> carriedIpv4(byte[] b) {
        boolean firstTenZero = true;
        for (int i = 0; i < 10; i++) firstTenZero &= b[i] == 0;
        if (firstTenZero && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0))) {
            return Optional.of(new byte[] {b[12], b[13], b[14], b[15]});   // ::ffff:a.b.c.d and ::a.b.c.d
        }
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b;
        for (int i = 4; nat64 && i < 12; i++) nat64 = b[i] == 0;
        if (nat64) return Optional.of(new byte[] {b[12], b[13], b[14], b[15]});   // 64:ff9b::a.b.c.d
        if (b[0] == 0x20 && b[1] == 0x02) return Optional.of(new byte[] {b[2], b[3], b[4], b[5]});   // 2002:AABB:CCDD::/48
        return Optional.empty();
    }

    private static Optional<String> find(List<Block> blocks, byte[] address) {
        for (Block block : blocks) if (block.contains(address)) return Optional.of(block.name());
        return Optional.empty();
    }

    private static Block block(String literal, int bits, String name) {
        try {
            return new Block(InetAddress.getByName(literal).getAddress(), bits, name);   // a literal: no lookup
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(literal, impossible);
        }
    }
}
