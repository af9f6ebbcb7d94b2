package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import org.junit.jupiter.api.Test;

/** management.port: the scrape and the probes on their own port, and off the API port. */
@LedgerlinkTest
@FrontEnd
class ManagementPortTest {

    @Test
    @ServerSettings("management.port=0")
    void withAManagementPortMetricsAndProbesMoveThereAndLeaveTheApiPort(TestServer server) {
        int port = server.server.managementPort();
        assertTrue(port > 0);
        assertNotEquals(server.server.port(), port);
        TestHttp management = server.closeFirst(new TestHttp("http://127.0.0.1:" + port));
        assertEquals(200, management.get("/healthz").status());
        assertEquals("ready", management.get("/readyz").json().get("status").asText());
        var metrics = management.get("/metrics");
        assertEquals(200, metrics.status());
        assertTrue(metrics.body().contains("jvm_memory_used_bytes"), metrics.body());
        for (String path : new String[] {"/metrics", "/healthz", "/readyz"}) {
            var r = server.http.get(path);
            assertEquals(404, r.status(), path);
            assertEquals("not_found", r.json().get("error").asText());
        }
        assertEquals(200, server.http.get("/.well-known/oauth-authorization-server").status(), "the API port still serves the API");
    }

    @Test
    void byDefaultTheApiPortServesThemAndThereIsNoManagementPort(TestServer server) {
        assertEquals(-1, server.server.managementPort());
        assertEquals(200, server.http.get("/metrics").status());
        assertEquals(200, server.http.get("/healthz").status());
    }
}
