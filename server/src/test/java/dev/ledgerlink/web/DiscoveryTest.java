package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
@FrontEnd
class DiscoveryTest {
    static TestServer server;

    @Test
    void metadataNamesEveryEndpointAndWhatIsSupported() {
        var r = server.http.get("/.well-known/oauth-authorization-server");
        assertEquals(200, r.status());
        JsonNode m = r.json();
        String base = server.baseUrl();
        assertEquals(base, m.get("issuer").asText());
        assertEquals(base + "/oauth/authorize", m.get("authorization_endpoint").asText());
        assertEquals(base + "/auth/oauth/token", m.get("token_endpoint").asText());
        assertEquals(base + "/auth/oauth/revoke", m.get("revocation_endpoint").asText());
        assertEquals(List.of("code"), strings(m.get("response_types_supported")));
        assertEquals(List.of("authorization_code", "refresh_token"), strings(m.get("grant_types_supported")));
        assertEquals(List.of("S256", "plain"), strings(m.get("code_challenge_methods_supported")));
        assertEquals(List.of("client_secret_basic", "client_secret_post"), strings(m.get("token_endpoint_auth_methods_supported")));
        assertTrue(strings(m.get("scopes_supported")).contains("user:profile:read"));
    }

    @Test
    @ServerSettings({"base-url=https://api.example.com/", "auth-url=https://my.example.com"})
    void configuredAddressesAreUsed(TestServer server) {
        JsonNode m = server.http.get("http://127.0.0.1:" + server.server.port() + "/.well-known/oauth-authorization-server").json();
        assertEquals("https://api.example.com", m.get("issuer").asText());
        assertEquals("https://my.example.com/oauth/authorize", m.get("authorization_endpoint").asText());
        assertEquals("https://api.example.com/auth/oauth/token", m.get("token_endpoint").asText());
    }

    @Test
    @ServerSettings("dev=false")
    void outsideDevelopmentModeTheHostHeaderNeverShapesTheAddresses(TestServer server) throws Exception {
        JsonNode m = discoveryWithHost(server, "evil.example");
        assertEquals("http://127.0.0.1:" + server.server.port(), m.get("issuer").asText());
        assertEquals("http://127.0.0.1:" + server.server.port() + "/oauth/authorize", m.get("authorization_endpoint").asText());
    }

    @Test
    void developmentModeAnswersUnderTheNameItWasReachedBy() throws Exception {
        JsonNode m = discoveryWithHost(server, "sandbox.localhost:7000");
        assertEquals("http://sandbox.localhost:7000", m.get("issuer").asText());
        assertEquals("http://sandbox.localhost:7000/auth/oauth/token", m.get("token_endpoint").asText());
    }

    /** The JDK client will not send a chosen Host header, so this request goes over a plain socket. */
    private static JsonNode discoveryWithHost(TestServer server, String host) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.server.port())) {
            s.getOutputStream().write(("GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String response = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(response.startsWith("HTTP/1.1 200"), response);
            return dev.ledgerlink.testing.TestHttp.JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
