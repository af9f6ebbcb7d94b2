package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/** The operator's ordered-delivery setting of a callback: PATCH /internal/v1/admin/callbacks/{id}, and `ledgerlink callbacks set/show`. */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + OrderedSettingApiTest.KEY})
class OrderedSettingApiTest {
    static final String KEY = "test-operator-key-ordered-0123456789";
    private static final String A = "/internal/v1/admin/callbacks/";
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    private static TestHttp.Response patch(String path, String body, String... auth) {
        HttpRequest.Builder b = server.http.request(A + path).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        if (auth.length == 0) b.header("Authorization", "Bearer " + KEY);
        return server.http.send(b);
    }

    private static JsonNode ok(TestHttp.Response r) {
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static void refused(TestHttp.Response r, int status, String field) {
        assertEquals(status, r.status(), r.body());
        assertEquals(status, r.json().get("errno").asInt(), r.body());
        if (field != null) assertEquals(field, r.json().at("/details/0/fieldViolations/0/field").asText(), r.body());
    }

    @Test
    void anOperatorSetsAndClearsOrderedDeliveryAndTheAdminGetShowsIt() {
        long id = f.verified("invoice", receiver).id();
        JsonNode shown = ok(server.http.get(A + id, "Authorization", "Bearer " + KEY));
        assertFalse(shown.at("/callback/ordered").asBoolean(), "off by default: " + shown);
        assertTrue(shown.at("/callback/ordered").isBoolean(), shown.toString());

        JsonNode on = ok(patch(Long.toString(id), "{\"ordered\": true}"));
        assertTrue(on.at("/callback/ordered").asBoolean(), on.toString());
        assertEquals(id, on.at("/callback/id").asLong());
        assertTrue(ok(server.http.get(A + id, "Authorization", "Bearer " + KEY)).at("/callback/ordered").asBoolean());
        assertTrue(ok(patch(Long.toString(id), "{\"ordered\": true}")).at("/callback/ordered").asBoolean(), "setting it again changes nothing");

        assertFalse(ok(patch(Long.toString(id), "{\"ordered\": false}")).at("/callback/ordered").asBoolean());
        assertFalse(f.callback(id).ordered());
    }

    @Test
    void badChangesAreRefusedWithTheFieldNamedAndChangeNothing() {
        long id = f.verified("invoice", receiver).id();
        refused(patch(Long.toString(id), "{\"ordered\": \"yes\"}"), 422, "ordered");
        refused(patch(Long.toString(id), "{\"ordered\": 1}"), 422, "ordered");
        refused(patch(Long.toString(id), "{\"ordered\": null}"), 422, "ordered");
        refused(patch(Long.toString(id), "{}"), 422, "body");
        refused(patch(Long.toString(id), "{\"ordered\": true, \"colour\": \"red\"}"), 422, "colour");
        refused(patch(Long.toString(id), "[true]"), 400, null);
        refused(patch(Long.toString(id), "{\"ordered\": tru"), 400, null);
        assertFalse(f.callback(id).ordered(), "nothing was changed");
        refused(patch(Long.toString(id + 999), "{\"ordered\": true}"), 404, null);
        refused(patch("abc", "{\"ordered\": true}"), 404, null);
        refused(patch(Long.toString(id), "{\"ordered\": true}", "no key"), 401, null);
        assertFalse(f.callback(id).ordered());
    }

    @Test
    void theCliSetsAndShowsIt() {
        long id = f.verified("invoice", receiver).id();
        String cb = Long.toString(id);
        assertFalse(ServerCli.json(server, "callbacks", "show", cb, "--json").at("/callback/ordered").asBoolean());
        assertTrue(ServerCli.json(server, "callbacks", "set", cb, "--ordered", "true", "--json").at("/callback/ordered").asBoolean());
        assertTrue(f.callback(id).ordered());
        var shown = ServerCli.run(server, "callbacks", "show", cb);
        assertEquals(0, shown.exitCode(), shown.toString());
        assertTrue(shown.toString().contains("ordered"), shown.toString());
        assertFalse(ServerCli.json(server, "callbacks", "set", cb, "--ordered", "false", "--json").at("/callback/ordered").asBoolean());
        assertFalse(f.callback(id).ordered());
        assertEquals(2, ServerCli.run(server, "callbacks", "set", cb, "--ordered", "maybe").exitCode(), "true or false only");
        assertEquals(2, ServerCli.run(server, "callbacks", "set", cb).exitCode(), "a setting to change is required");
    }

    /** The console's callbacks list marks an ordered callback. */
    @Test
    void theConsoleShowsThatACallbackIsOrdered() {
        long id = f.verified("invoice", receiver).id();
        try (BrowserSession b = new BrowserSession(server.baseUrl())) {
            assertEquals(303, b.consoleSignIn(f.user().email(), f.password()).status());
            assertFalse(rowOf(b.get("/console/callbacks").body(), id).contains(">ordered</span>"));
            ok(patch(Long.toString(id), "{\"ordered\": true}"));
            String row = rowOf(b.get("/console/callbacks").body(), id);
            assertTrue(row.contains(">ordered</span>"), row);
        }
    }

    /** The table row of callback {@code id} in the console's list. */
    private static String rowOf(String page, long id) {
        int start = page.indexOf(">#" + id + "</a>");
        assertTrue(start >= 0, page);
        return page.substring(start, page.indexOf("</tr>", start));
    }
}
