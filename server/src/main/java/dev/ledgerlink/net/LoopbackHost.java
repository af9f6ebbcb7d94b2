package dev.ledgerlink.net;

import java.util.Locale;

/**
 * The loopback-host rule shared by redirect URIs (accounts.RedirectUriRule) and callback URIs
 * (callbacks.CallbackUriRule): where development mode allows plain http. By name only, never a DNS
 * lookup: localhost and its subdomains, 127.0.0.0/8, and ::1 in either spelling, bracketed or not.
 */
public final class LoopbackHost {
    private LoopbackHost() {}

    public static boolean is(String host) {
        if (host == null) return false;
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
        if (h.equals("localhost") || h.endsWith(".localhost")) return true;
        if (h.matches("127(\\.\\d{1,3}){3}")) return true;
        return h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
    }
}
