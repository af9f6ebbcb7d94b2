package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ledgerlink.net.ContainerHostNames;
import dev.ledgerlink.net.PublicAddressGate;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallbackUriRuleTest {
    /** A resolver that answers from a table: no DNS is asked in tests. */
    private static final PublicAddressGate.Resolver TABLE = host -> {
        Map<String, String> names = Map.of(
                "hooks.example.com", "93.184.216.34",
                "internal.example.com", "10.1.2.3",
                "localhost", "127.0.0.1",
                "metadata.example.com", "169.254.169.254",
                "v6.example.com", "fd00::1");
        String ip = names.get(host);
        if (ip != null) return new InetAddress[] {InetAddress.getByName(ip)};
        if (host.matches("[0-9.]+") || host.contains(":")) return new InetAddress[] {InetAddress.getByName(host)};
        throw new UnknownHostException(host);
    };
    private final CallbackUriRule production = new CallbackUriRule(PublicAddressGate.of(false, TABLE));
    private final CallbackUriRule dev = new CallbackUriRule(PublicAddressGate.of(true, TABLE));

    @Test
    void publicHttpsIsAccepted() {
        assertNull(production.refusal("https://hooks.example.com/freshbooks?x=1"));
        assertNull(production.refusal("https://93.184.216.34:8443/hook"));
    }

    @Test
    void httpIsRefusedOutsideDevModeAndAllowedOnlyToLoopbackInDevMode() {
        assertEquals("must use https", production.refusal("http://hooks.example.com/x"));
        assertEquals("must use https", production.refusal("http://127.0.0.1:9000/x"));
        assertNull(dev.refusal("http://127.0.0.1:9000/x"));
        assertNull(dev.refusal("http://localhost:9000/x"));
        assertNull(dev.refusal("http://[::1]:9000/x"));
        assertEquals("must use https (http is allowed only to loopback hosts and to host.docker.internal, host.containers.internal, host.testcontainers.internal in development mode)", dev.refusal("http://hooks.example.com/x"));
    }

    @Test
    void privateLoopbackAndLinkLocalTargetsAreRefusedOutsideDevMode() {
        String why = "must not point at a private, loopback or link-local address";
        assertEquals(why, production.refusal("https://127.0.0.1/x"));
        assertEquals(why, production.refusal("https://localhost/x"));
        assertEquals(why, production.refusal("https://10.0.0.5/x"));
        assertEquals(why, production.refusal("https://192.168.1.1/x"));
        assertEquals(why, production.refusal("https://172.16.0.1/x"));
        assertEquals(why, production.refusal("https://169.254.169.254/latest"));
        assertEquals(why, production.refusal("https://100.64.0.1/x"));
        assertEquals(why, production.refusal("https://[::1]/x"));
        assertEquals(why, production.refusal("https://[fe80::1]/x"));
        assertEquals(why, production.refusal("https://0.0.0.0/x"));
        assertEquals(why, production.refusal("https://internal.example.com/x"), "a name that resolves to a private address");
        assertEquals(why, production.refusal("https://metadata.example.com/x"));
        assertEquals(why, production.refusal("https://v6.example.com/x"));
        assertEquals("names a host that does not resolve", production.refusal("https://nowhere.invalid/x"));
    }

    @Test
    void malformedRelativeAndOverlongUrisAreRefused() {
        assertEquals("is required", production.refusal(""));
        assertEquals("is required", production.refusal(null));
        assertEquals("must be an absolute https URI", production.refusal("/relative/path"));
        assertEquals("is not a valid URI", production.refusal("https://exa mple.com/"));
        assertEquals("must use https", production.refusal("ftp://hooks.example.com/x"));
        assertEquals("must be an absolute https URI", production.refusal("mailto:someone@example.com"));
        assertEquals("must not contain user information", production.refusal("https://user:pw@hooks.example.com/x"));
        assertEquals("must not contain a fragment", production.refusal("https://hooks.example.com/x#frag"));
        String longUri = "https://hooks.example.com/" + "a".repeat(CallbackUriRule.MAX_LENGTH);
        assertEquals("must be at most 2048 characters", production.refusal(longUri));
        String exact = "https://hooks.example.com/" + "a".repeat(CallbackUriRule.MAX_LENGTH - 26);
        assertEquals(2048, exact.length());
        assertNull(production.refusal(exact));
    }

    @Test
    void theNamesContainersGiveTheirHostAreTreatedAsLoopbackInDevelopmentModeOnly() {
        for (String host : java.util.List.of("host.docker.internal", "host.containers.internal", "HOST.Testcontainers.Internal")) {
            assertNull(dev.refusal("http://" + host + ":9000/webhooks"), host);
            assertEquals("must use https", production.refusal("http://" + host + ":9000/webhooks"), host);
        }
        assertEquals("must use https (http is allowed only to loopback hosts and to " + String.join(", ", ContainerHostNames.ALL)
                + " in development mode)", dev.refusal("http://docker.internal:9000/x"), "the names themselves, nothing near them");
        assertEquals("must use https (http is allowed only to loopback hosts and to " + String.join(", ", ContainerHostNames.ALL)
                + " in development mode)", dev.refusal("http://evil.host.docker.internal/x"));
    }

    @Test
    void devCallbackHostsAllowHttpToThoseNamesOnlyAndOnlyInDevelopmentMode() {
        var compose = new CallbackUriRule(PublicAddressGate.of(true, java.util.Set.of("app", "receiver"), TABLE));
        assertNull(compose.refusal("http://app:3000/webhooks"));
        assertNull(compose.refusal("http://RECEIVER/hooks"), "host names are not case-sensitive");
        assertNull(compose.refusal("http://127.0.0.1:9000/x"), "loopback still");
        assertEquals("must use https (http is allowed only to loopback hosts, to host.docker.internal, host.containers.internal, host.testcontainers.internal"
                + " and to app, receiver (dev.callback-hosts) in development mode)",
                compose.refusal("http://hooks.example.com/x"));
        assertEquals("must use https (http is allowed only to loopback hosts, to host.docker.internal, host.containers.internal, host.testcontainers.internal"
                + " and to app, receiver (dev.callback-hosts) in development mode)",
                compose.refusal("http://app.example.com/x"), "the name itself, not a domain under it");
        var productionWithTheSetting = new CallbackUriRule(PublicAddressGate.of(false, java.util.Set.of("app"), TABLE));
        assertEquals("must use https", productionWithTheSetting.refusal("http://app:3000/webhooks"), "ignored outside development mode");
        assertEquals("must not point at a private, loopback or link-local address", productionWithTheSetting.refusal("https://internal.example.com/x"));
    }
}
