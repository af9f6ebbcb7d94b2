package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.callbacks.CallbackApi;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** POST .../events/test: in development mode an application fires a signed test event with its own token, under the same rules. */
@LedgerlinkTest
class TestEventsTest {
    static TestServer server;
    Receiver receiver;
    Fixtures f;

    private String token(String... scopes) {
        return f.issue(Set.of(scopes)).accessToken();
    }

    private TestHttp.Response fire(TestHttp http, String account, String token, String json) {
        return http.postJson("/events/account/" + account + "/events/test", json, "Authorization", "Bearer " + token);
    }

    @Test
    void aVerifiedCallbackReceivesTheTestEventSignedLikeARealOne() {
        String token = token("user:invoices:read");
        CallbackApi api = new CallbackApi(server, f.account().accountId(), token);
        long id = api.registerId("invoice", receiver.uri());
        String code = receiver.next("callback.verify").param("verifier");
        assertEquals(200, api.verify(id, code).status());

        var r = fire(server.http, f.account().accountId(), token, "{\"name\": \"invoice.create\", \"object_id\": 42}");
        assertEquals(202, r.status(), r.body());
        assertEquals(1, r.json().get("event").get("deliveries").asInt());
        assertEquals(f.user().id(), r.json().get("event").get("user_id").asLong(), "user_id is the token's user");

        Receiver.Request n = receiver.next("invoice.create");
        assertEquals(List.of("name", "object_id", "account_id", "user_id"), List.copyOf(n.params().keySet()));
        assertEquals("42", n.param("object_id"));
        assertTrue(ServiceSignature.verify(code, n.body(), n.signature()));
    }

    @Test
    void objectIdDefaultsToOne() {
        var r = fire(server.http, f.account().accountId(), token("user:clients:read"), "{\"name\": \"client.update\"}");
        assertEquals(202, r.status(), r.body());
        assertEquals(1, r.json().get("event").get("object_id").asLong());
    }

    @Test
    void theSameRulesAsSeeingTheEvent() {
        String account = f.account().accountId();
        var noScope = fire(server.http, account, token("user:clients:read"), "{\"name\": \"invoice.create\"}");
        assertEquals(403, noScope.status(), noScope.body());
        assertTrue(noScope.json().get("message").asText().contains("user:invoices:read"), noScope.body());

        String otherAccount = server.services().accounts().create("Elsewhere", "UTC").accountId();
        assertEquals(403, fire(server.http, otherAccount, token("user:invoices:read"), "{\"name\": \"invoice.create\"}").status());

        var unknown = fire(server.http, account, token("user:invoices:read"), "{\"name\": \"invoice.explode\"}");
        assertEquals(422, unknown.status(), unknown.body());
        assertEquals("name", unknown.json().get("details").get(0).get("fieldViolations").get(0).get("field").asText());

        var noToken = server.http.postJson("/events/account/" + account + "/events/test", "{\"name\": \"invoice.create\"}");
        assertEquals(401, noToken.status());
    }

    @Test
    void outsideDevelopmentModeTheRouteDoesNotExist() {
        try (TestServer prod = TestServer.start(b -> b.set(Setting.DEV, "false"))) {
            Fixtures g = Fixtures.create(prod, "https://app.example.com/callback");
            String token = prod.services().tokens().issue(g.user().id(), g.app().id(), Set.of("user:invoices:read")).accessToken();
            var r = fire(prod.http, g.account().accountId(), token, "{\"name\": \"invoice.create\"}");
            assertEquals(404, r.status(), r.body());
        }
    }
}
