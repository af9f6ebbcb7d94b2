package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What a test in any language needs of the sandbox over HTTP alone (decisions.md, "Development mode"):
 * tokens for a user and application ({@code POST /sandbox/v1/tokens}, as {@code tokens issue}) and
 * test events for an account ({@code POST /sandbox/v1/events}, with delivery options), both with the
 * operator key, both absent outside development mode.
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + SandboxFaultsTest.OPERATOR_KEY)
class SandboxHttpControlsTest {
    static TestServer server;
    Fixtures f;

    private static TestHttp.Response post(String path, String json) {
        return server.http.postJson(path, json, SandboxFaultsTest.OPERATOR);
    }

    @Test
    void tokensForAUserAndApplicationWorkAndRefreshLikeACodeExchangesTokens() {
        var r = post("/sandbox/v1/tokens", "{\"user\": \"" + f.user().email() + "\", \"client_id\": \"" + f.app().clientId()
                + "\", \"scope\": \"user:profile:read\"}");
        assertEquals(200, r.status(), r.body());
        assertEquals("no-store", r.header("Cache-Control"));
        JsonNode tokens = r.json();
        assertEquals("Bearer", tokens.get("token_type").asText());
        assertEquals(43200, tokens.get("expires_in").asLong());
        assertEquals("user:profile:read", tokens.get("scope").asText());
        assertEquals(200, server.http.get("/auth/api/v1/users/me", f.bearer(tokens.get("access_token").asText())).status());
        var refreshed = OAuthFlows.refresh(server, f, tokens.get("refresh_token").asText());
        assertEquals(200, refreshed.status(), refreshed.body());

        var byId = post("/sandbox/v1/tokens", "{\"user\": " + f.user().id() + ", \"client_id\": \"" + f.app().clientId() + "\"}");
        assertEquals(200, byId.status(), byId.body());
        assertEquals(new TreeSet<>(Fixtures.SCOPES), new TreeSet<>(Set.of(byId.json().get("scope").asText().split(" "))),
                "no scope: the application's");
    }

    @Test
    void badTokenRequestsAreRefusedInTheDocumentedShape() {
        String app = f.app().clientId();
        assertEquals(Set.of("user", "client_id"), fields(post("/sandbox/v1/tokens", "{}")));
        assertEquals(Set.of("app"), fields(post("/sandbox/v1/tokens", "{\"user\": \"" + f.user().email() + "\", \"client_id\": \"" + app
                + "\", \"app\": \"x\"}")));
        assertEquals(Set.of("scope"), fields(post("/sandbox/v1/tokens", "{\"user\": \"" + f.user().email() + "\", \"client_id\": \"" + app
                + "\", \"scope\": \"admin:everything\"}")));
        assertEquals(404, post("/sandbox/v1/tokens", "{\"user\": \"nobody@example.com\", \"client_id\": \"" + app + "\"}").status());
        assertEquals(401, server.http.postJson("/sandbox/v1/tokens", "{\"user\": \"" + f.user().email() + "\", \"client_id\": \"" + app + "\"}")
                .status(), "the operator key is required");
    }

    @Test
    void testEventsForAnAccountAreDeliveredWithTheirOptions(Receiver receiver) {
        long callback = f.verified("invoice", receiver).id();
        receiver.clear();
        var r = post("/sandbox/v1/events", "{\"account_id\": \"" + f.account().accountId() + "\", \"name\": \"invoice.create\", \"object_id\": 42, "
                + "\"user_id\": " + f.user().id() + ", \"delivery\": {\"copies\": 2}}");
        assertEquals(202, r.status(), r.body());
        assertEquals(42, r.json().get("event").get("object_id").asLong());
        assertEquals(2, r.json().get("delivery").get("copies").asInt());
        Receiver.Request first = receiver.next("invoice.create"), second = receiver.next("invoice.create");
        assertEquals(first.header("webhook-id"), second.header("webhook-id"), "two copies of one message");
        Eventually.await("the delivery is recorded as a test", () -> server.services().deliveryReads().history(null, callback, 1, 10)
                .deliveries().stream().anyMatch(d -> d.name().equals("invoice.create") && d.test() != null && !d.attempts().isEmpty()));

        var several = post("/sandbox/v1/events", "{\"account_id\": \"" + f.account().accountId() + "\", \"events\": [{\"name\": \"invoice.create\", "
                + "\"object_id\": 1, \"user_id\": " + f.user().id() + "}, {\"name\": \"invoice.update\", \"object_id\": 2, \"user_id\": "
                + f.user().id() + "}], \"delivery\": {\"order\": \"reversed\"}}");
        assertEquals(202, several.status(), several.body());
        assertEquals("2", receiver.next("invoice.update").param("object_id"), "reversed: the second first");
        assertEquals("1", receiver.next("invoice.create").param("object_id"));
    }

    @Test
    void badEventRequestsAreRefusedAndAnIdempotencyKeyNamesOneEvent() {
        String account = f.account().accountId();
        assertEquals(Set.of("account_id"), fields(post("/sandbox/v1/events", "{\"name\": \"invoice.create\", \"user_id\": 1}")));
        assertEquals(Set.of("user_id"), fields(post("/sandbox/v1/events", "{\"account_id\": \"" + account + "\", \"name\": \"invoice.create\"}")));
        assertEquals(Set.of("copies"), fields(post("/sandbox/v1/events", "{\"account_id\": \"" + account + "\", \"name\": \"invoice.create\", "
                + "\"user_id\": 1, \"copies\": 3}")));
        String once = "{\"account_id\": \"" + account + "\", \"name\": \"invoice.create\", \"user_id\": " + f.user().id() + "}";
        var first = server.http.postJson("/sandbox/v1/events", once, "Authorization", "Bearer " + SandboxFaultsTest.OPERATOR_KEY, "Idempotency-Key", "k-1");
        var again = server.http.postJson("/sandbox/v1/events", once, "Authorization", "Bearer " + SandboxFaultsTest.OPERATOR_KEY, "Idempotency-Key", "k-1");
        assertEquals(202, first.status(), first.body());
        assertEquals(first.json().get("event").get("id"), again.json().get("event").get("id"), "the same key answers with the original event");
        assertEquals(401, server.http.postJson("/sandbox/v1/events", once).status());
    }

    @Test
    void outsideDevelopmentModeTheRoutesDoNotExist() {
        try (TestServer prod = TestServer.start(b -> b.set(Setting.DEV, "false").set(Setting.OPERATOR_KEY, SandboxFaultsTest.OPERATOR_KEY))) {
            assertEquals(404, prod.http.postJson("/sandbox/v1/tokens", "{}", SandboxFaultsTest.OPERATOR).status());
            assertEquals(404, prod.http.postJson("/sandbox/v1/events", "{}", SandboxFaultsTest.OPERATOR).status());
        }
    }

    private static Set<String> fields(TestHttp.Response r) {
        assertEquals(422, r.status(), r.body());
        Set<String> out = new TreeSet<>();
        r.json().get("details").get(0).get("fieldViolations").forEach(v -> out.add(v.get("field").asText()));
        assertNull(r.json().get("trace"), "no stack trace in a refusal");
        return out;
    }
}
