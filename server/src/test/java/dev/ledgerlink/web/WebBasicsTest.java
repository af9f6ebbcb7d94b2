package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
@FrontEnd
class WebBasicsTest {
    static TestServer server;

    @Test
    void healthzAnswersWhileAlive() {
        var r = server.http.get("/healthz");
        assertEquals(200, r.status());
        assertEquals("ok", r.json().get("status").asText());
    }

    @Test
    void readyzReportsTheDatabase() {
        var r = server.http.get("/readyz");
        assertEquals(200, r.status());
        assertEquals("reachable", r.json().get("database").asText());
    }

    @Test
    void unknownPathIsA404InTheDocumentedErrorShape() {
        var r = server.http.get("/no/such/thing");
        assertEquals(404, r.status());
        JsonNode body = r.json();
        assertEquals(404, body.get("errno").asInt());
        assertEquals(5, body.get("code").asInt());
        assertEquals("Requested resource could not be found.", body.get("message").asText());
        assertEquals("not_found", body.get("error").asText());
        assertEquals(body.get("message").asText(), body.get("error_description").asText());
        assertTrue(body.get("details").isArray());
        assertEquals(0, body.get("details").size());
    }

    @Test
    void everyResponseCarriesARequestIdAndEchoesASaneOne() {
        var made = server.http.get("/healthz");
        assertNotNull(made.header("X-Request-Id"));
        var echoed = server.http.get("/healthz", "X-Request-Id", "abc-123");
        assertEquals("abc-123", echoed.header("X-Request-Id"));
        var replaced = server.http.get("/healthz", "X-Request-Id", "bad id with spaces");
        assertTrue(replaced.header("X-Request-Id").matches("[A-Za-z0-9]{16}"));
    }

    @Test
    void metricsAreServedInPrometheusFormatByRouteAndStatus() {
        server.http.get("/healthz");
        var r = server.http.get("/metrics");
        assertEquals(200, r.status());
        assertTrue(r.header("Content-Type").startsWith("text/plain"));
        assertTrue(r.body().contains("http_server_requests_seconds_count{method=\"GET\",route=\"/healthz\",status=\"200\"}"), r.body());
        assertTrue(r.body().contains("jvm_memory_used_bytes"));
        assertTrue(r.body().contains("hikaricp_connections"), "pool metrics");
    }

    @Test
    void unsupportedApiVersionIsA400NamingTheSupportedOnes() {
        var r = server.http.get("/auth/api/v1/users/me", "Api-Version", "beta");
        assertEquals(400, r.status());
        assertTrue(r.json().get("message").asText().contains("alpha"));
    }
}
