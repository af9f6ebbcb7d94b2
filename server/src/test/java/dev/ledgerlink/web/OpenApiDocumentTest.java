package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.OpenApiContract;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import io.javalin.router.Endpoint;
import io.javalin.http.HandlerType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.FrontEnd;

/**
 * openapi.json and the server agree: every route the server registers is documented and every
 * documented operation is registered (a route added later without documentation fails here), the
 * server serves the document of the repository, and responses are validated against it.
 */
@LedgerlinkTest   // development mode: its test-event route too
@FrontEnd
class OpenApiDocumentTest {
    static TestServer server;

    @Test
    void everyRegisteredRouteIsInTheDocumentAndNothingElse() {
        Set<String> registered = new TreeSet<>();
        server.server.web().unsafe.internalRouter.allHttpHandlers().stream()
                .map(e -> e.endpoint)
                .filter(e -> e.method.isHttpMethod() && e.method != HandlerType.HEAD && e.method != HandlerType.OPTIONS)
                .forEach((Endpoint e) -> registered.add(e.method.name().toUpperCase(Locale.ROOT) + " " + e.path));
        Set<String> undocumented = new TreeSet<>(registered);
        undocumented.removeAll(OpenApiContract.documented());
        assertEquals(Set.of(), undocumented, "routes missing from server/src/main/resources/openapi.json (docs/api.md says how to add one)");
        Set<String> stale = new TreeSet<>(OpenApiContract.documented());
        stale.removeAll(registered);
        assertEquals(Set.of(), stale, "openapi.json documents routes the server does not have");
    }

    @Test
    void theServerServesTheDocumentOfTheRepository() throws Exception {
        TestHttp.Response r = server.http.get("/openapi.json");
        assertEquals(200, r.status());
        JsonNode served = r.json();
        assertEquals("3.1.0", served.get("openapi").asText());
        assertEquals(TestHttp.JSON.readTree(Files.readString(Path.of("src/main/resources/openapi.json"))), served);
    }

    @Test
    void realResponsesAreValidatedAndAMismatchFails(Fixtures f) {
        int before = OpenApiContract.validated();
        String token = f.issue().accessToken();
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(token)).status());
        assertEquals(401, server.http.get("/auth/api/v1/users/me").status());
        assertEquals(200, server.http.get("/healthz").status());
        assertEquals(200, server.http.get("/.well-known/oauth-authorization-server").status());
        assertTrue(OpenApiContract.validated() >= before + 4, "each JSON response went through the contract");

        AssertionError wrong = assertThrows(AssertionError.class, () -> OpenApiContract.check("GET", "/healthz", 200,
                "application/json", "{\"status\": 1}"));
        assertTrue(wrong.getMessage().contains("does not match openapi.json"), wrong.getMessage());
        AssertionError callback = assertThrows(AssertionError.class, () -> OpenApiContract.check("GET",
                "/events/account/6BApk/events/callbacks/7", 200, "application/json",
                "{\"response\": {\"result\": {\"callback\": {\"id\": 7}}}}"));
        assertTrue(callback.getMessage().contains("callbackid"), callback.getMessage());
    }
}
