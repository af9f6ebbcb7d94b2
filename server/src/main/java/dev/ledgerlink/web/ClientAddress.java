package dev.ledgerlink.web;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import io.javalin.http.Context;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one answer to "which address is the client at" (login throttling counts per address). The
 * peer of the connection, unless that peer is a trusted reverse proxy (http.trusted-proxies): then
 * X-Forwarded-For is read from its end, skipping trusted proxies, and the first address that is not
 * one is the client. Addresses a client wrote further left are never believed, and X-Forwarded-For
 * from anyone else is ignored, so a client cannot pick its own address to dodge a throttle.
 */
public final class ClientAddress {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final List<Range> trusted;

    private ClientAddress(List<Range> trusted) {
        this.trusted = trusted;
    }

    /** From the setting's value: comma-separated addresses or CIDR ranges; a bad entry stops the server at start. */
    public static ClientAddress trusting(String proxies) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : proxies.split(",")) {
            if (entry.isBlank()) continue;
            ranges.add(Range.parse(entry.trim()));
        }
        return new ClientAddress(List.copyOf(ranges));
    }

    public String of(Context ctx) {
        String peer = strip(ctx.req().getRemoteAddr());
        if (trusted.isEmpty() || !isTrusted(peer)) return peer;
        List<String> hops = new ArrayList<>();
        for (String header : Collections.list(ctx.req().getHeaders("X-Forwarded-For"))) {
            for (String hop : header.split(",")) if (!hop.isBlank()) hops.add(strip(hop.trim()));
        }
        String nearest = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (literal(hop) == null) return nearest;   // garbage a client wrote: the last proxy saw the client
            if (!isTrusted(hop)) return hop;
            nearest = hop;
        }
        return nearest;
    }

    private boolean isTrusted(String address) {
        InetAddress a = literal(address);
        return a != null && trusted.stream().anyMatch(r -> r.contains(a));
    }

    private static String strip(String address) {
        return address != null && address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
    }

    /** An IP literal, never a name: nothing here may cause a DNS lookup. */
    static InetAddress literal(String text) {
        if (text == null || !(IPV4.matcher(text).matches() || (text.contains(":") && text.matches("[0-9A-Fa-f:.]+")))) return null;
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private record Range(byte[] network, int prefix) {
        static Range parse(String entry) {
            int slash = entry.indexOf('/');
            InetAddress a = literal(slash < 0 ? entry : entry.substring(0, slash));
            if (a == null) throw bad(entry);
            int bits = a.getAddress().length * 8;
            int prefix = bits;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw bad(entry);
                }
                if (prefix < 0 || prefix > bits) throw bad(entry);
            }
            return new Range(a.getAddress(), prefix);
        }

        boolean contains(InetAddress address) {
            byte[] b = address.getAddress();
            if (b.length != network.length) return false;
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >> (bit % 8);
                if ((b[bit / 8] & mask) != (network[bit / 8] & mask)) return false;
            }
            return true;
        }

        private static ConfigurationException bad(String entry) {
            return new ConfigurationException(Setting.TRUSTED_PROXIES.key() + ": '" + entry + "' is not an IP address or CIDR range");
        }
    }
}
