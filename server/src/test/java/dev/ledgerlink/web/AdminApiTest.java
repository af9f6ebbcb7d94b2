package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.delivery.Deliveries;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.Set;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.FrontEnd;

/** The admin API under /internal/v1/admin over HTTP (operator key), and the CLI commands that call the same services. */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + AdminApiTest.KEY, "delivery.poll-interval=PT0.1S"})
@FrontEnd
class AdminApiTest {
    static final String KEY = "test-operator-key-admin-0123456789";
    private static final String A = "/internal/v1/admin";
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    private static TestHttp.Response get(TestServer server, String path) {
        return server.http.get(A + path, "Authorization", "Bearer " + KEY);
    }

    private static TestHttp.Response post(TestServer server, String path, String body) {
        return server.http.postJson(A + path, body, "Authorization", "Bearer " + KEY);
    }

    private static JsonNode ok(TestHttp.Response r) {
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static void assertField(TestHttp.Response r, int status, String field) {
        assertEquals(status, r.status(), r.body());
        assertEquals(status, r.json().get("errno").asInt(), r.body());
        if (field != null) assertEquals(field, r.json().at("/details/0/fieldViolations/0/field").asText(), r.body());
    }

    @Test
    void everyRouteWantsTheOperatorKey() {
        for (String path : new String[] {"/accounts", "/users", "/memberships", "/applications", "/callbacks", "/deliveries", "/grants?user_id=1"}) {
            assertField(server.http.get(A + path), 401, null);
            assertField(server.http.get(A + path, "Authorization", "Bearer " + KEY + "x"), 401, null);
        }
        assertField(server.http.postJson(A + "/applications", "{}"), 401, null);
        assertField(server.http.postJson(A + "/callbacks/1/disable", ""), 401, null);
    }

    @Test
    void accountsUsersAndMembershipsAreListedPageByPage() {
        var f1 = f;
        var f2 = Fixtures.create(server);   // a second account
        JsonNode page = ok(get(server, "/accounts?per_page=1&page=2"));
        long total = page.get("total").asLong();
        assertTrue(total >= 2, page.toString());
        assertEquals(total, page.get("pages").asLong());
        assertEquals(1, page.get("accounts").size());
        assertEquals(100, ok(get(server, "/accounts?per_page=1000")).get("per_page").asInt(), "clamped like the callbacks list");
        assertField(get(server, "/accounts?page=0"), 422, "page");
        assertField(get(server, "/users?per_page=abc"), 422, "per_page");

        assertEquals(f1.account().name(), ok(get(server, "/accounts/" + f1.account().accountId())).at("/account/name").asText());
        assertField(get(server, "/accounts/nope"), 404, null);
        assertEquals(f2.user().email(), ok(get(server, "/users/" + f2.user().id())).at("/user/email").asText());
        assertField(get(server, "/users/abc"), 404, null);
        assertTrue(ok(get(server, "/users")).get("total").asLong() >= 2);

        JsonNode members = ok(get(server, "/memberships?account_id=" + f1.account().accountId()));
        assertEquals(1, members.get("total").asInt(), members.toString());
        assertEquals(f1.user().id(), members.at("/memberships/0/user_id").asLong());
        assertEquals("owner", members.at("/memberships/0/role").asText());
        assertEquals(f2.account().accountId(), ok(get(server, "/memberships?user_id=" + f2.user().id())).at("/memberships/0/account_id").asText());
        assertField(get(server, "/memberships?user_id=x"), 422, "user_id");
    }

    @Test
    void applicationsAreCreatedListedShownAndRotated() {
        TestHttp.Response created = post(server, "/applications",
                "{\"name\": \"Books Sync\", \"redirect_uris\": [\"https://books.example.com/cb\"], \"scopes\": [\"user:invoices:read\"]}");
        assertEquals(201, created.status(), created.body());
        JsonNode app = created.json().get("application");
        String clientId = app.get("client_id").asText();
        String secret = app.get("client_secret").asText();
        assertTrue(secret.length() >= 43, "256 bits");

        JsonNode list = ok(get(server, "/applications"));
        assertTrue(list.toString().contains(clientId));
        assertFalse(list.toString().contains("client_secret"), "never a secret in a list");
        JsonNode shown = ok(get(server, "/applications/" + clientId)).get("application");
        assertEquals("Books Sync", shown.get("name").asText());
        assertFalse(shown.has("client_secret"));
        assertEquals(clientId, ok(get(server, "/applications/" + app.get("id").asLong())).at("/application/client_id").asText());
        assertField(get(server, "/applications/nope"), 404, null);

        JsonNode rotated = ok(post(server, "/applications/" + clientId + "/rotate-secret", "{\"keep_old\": \"P7D\"}")).get("application");
        assertFalse(rotated.get("previous_secret_valid_until").isNull());
        assertTrue(server.services().applications().authenticate(clientId, secret).isPresent(), "old secret in the overlap");
        assertTrue(server.services().applications().authenticate(clientId, rotated.get("client_secret").asText()).isPresent());
        ok(post(server, "/applications/" + clientId + "/retire-secret", ""));
        assertTrue(server.services().applications().authenticate(clientId, secret).isEmpty(), "retired");

        assertField(post(server, "/applications", "{\"name\": \"\", \"redirect_uris\": [], \"scopes\": []}"), 422, "name");
        assertField(post(server, "/applications", "{\"name\": \"X\", \"redirect_uris\": [1], \"scopes\": [\"user:invoices:read\"]}"), 422, "redirect_uris");
        assertField(post(server, "/applications", "{\"name\": {}}"), 422, "name");
        assertField(post(server, "/applications", "not json"), 400, null);
        assertField(post(server, "/applications", ""), 400, null);
    }

    @Test
    void callbacksAcrossAccountsAreListedByStateDisabledAndEnabled() {
        long verified = f.verified("invoice", receiver).id();
        long unverified = f.register("client", receiver.uri()).id();
        f.verificationsRecorded(unverified);

        JsonNode v = ok(get(server, "/callbacks?state=verified&account_id=" + f.account().accountId()));
        assertEquals(1, v.get("total").asInt(), v.toString());
        assertEquals(verified, v.at("/callbacks/0/callbackid").asLong());
        assertEquals(f.account().accountId(), v.at("/callbacks/0/account_id").asText());
        assertEquals(unverified, ok(get(server, "/callbacks?state=unverified&account_id=" + f.account().accountId())).at("/callbacks/0/id").asLong());
        assertEquals(2, ok(get(server, "/callbacks?account_id=" + f.account().accountId())).get("total").asInt());
        assertField(get(server, "/callbacks?state=sleeping"), 422, "state");
        assertField(get(server, "/callbacks?account_id=" + "x".repeat(300)), 422, "account_id");
        assertField(get(server, "/memberships?account_id=" + "x".repeat(300)), 422, "account_id");

        // A pending delivery is dropped when the callback is disabled; recover then refuses (409) until it is enabled.
        receiver.answer(r -> new Receiver.Answer(500, java.util.Map.of(), java.time.Duration.ZERO));
        server.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), 9L, f.user().id(), null));
        JsonNode disabled = ok(post(server, "/callbacks/" + verified + "/disable", "")).get("callback");
        assertEquals("disabled", disabled.get("state").asText());
        assertTrue(disabled.get("disabled").asBoolean());
        ok(post(server, "/callbacks/" + verified + "/disable", ""));
        Deliveries.await("the queued delivery dropped", () -> server.services().deliveryReads().search(verified, "dropped", null, null,
                dev.ledgerlink.paging.Paging.of(1, 10)).total() == 1);
        JsonNode dropped = ok(get(server, "/deliveries?callback_id=" + verified + "&state=dropped"));
        assertEquals(1, dropped.get("total").asInt(), dropped.toString());
        assertEquals(1, ok(get(server, "/callbacks?state=disabled&account_id=" + f.account().accountId())).get("total").asInt());
        String since = server.clock.instant().minusSeconds(3600).toString();
        assertField(post(server, "/callbacks/" + verified + "/recover", "{\"since\": \"" + since + "\"}"), 409, null);

        assertEquals("verified", ok(post(server, "/callbacks/" + verified + "/enable", "")).at("/callback/state").asText());
        server.clock.advance(java.time.Duration.ofSeconds(1));   // until defaults to now, and the window excludes until
        receiver.answer(r -> Receiver.Answer.of(200));
        JsonNode recovered = ok(post(server, "/callbacks/" + verified + "/recover", "{\"since\": \"" + since + "\"}"));
        assertEquals(1, recovered.at("/recover/requeued").asInt(), recovered.toString());
        receiver.await(1, r -> "invoice.create".equals(r.param("name")) && "9".equals(r.param("object_id")));

        ok(post(server, "/callbacks/" + unverified + "/disable", ""));
        assertField(post(server, "/callbacks/" + unverified + "/enable", ""), 409, null);
        assertField(get(server, "/callbacks/" + (verified + 999)), 404, null);
        assertField(post(server, "/callbacks/abc/disable", ""), 404, null);
    }

    @Test
    void deliveriesAreListedByCallbackStateAndTimeAndRedelivered() {
        long id = f.verified("invoice", receiver).id();
        f.verificationsRecorded(id);
        receiver.clear();
        server.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), 3L, f.user().id(), null));
        receiver.await(1);
        Deliveries.await("delivered", () -> server.services().deliveryReads().search(id, "delivered", null, null, dev.ledgerlink.paging.Paging.of(1, 10)).total() == 2);
        String before = server.clock.instant().minusSeconds(60).toString();
        String after = server.clock.instant().plusSeconds(60).toString();
        JsonNode page = ok(get(server, "/deliveries?callback_id=" + id + "&state=delivered&since=" + before + "&until=" + after));
        assertEquals(2, page.get("total").asInt(), "the notification and the set-up's verification request: " + page);
        JsonNode notification = null;
        for (JsonNode d : page.get("deliveries")) if (d.get("kind").asText().equals("event")) notification = d;
        assertEquals("invoice.create", notification.get("name").asText(), page.toString());
        long deliveryId = notification.get("id").asLong();
        assertEquals(200, notification.at("/attempts/0/status_code").asInt());
        assertEquals(0, ok(get(server, "/deliveries?callback_id=" + id + "&until=" + before)).get("total").asInt());
        assertField(get(server, "/deliveries?state=lost"), 422, "state");
        assertField(get(server, "/deliveries?since=yesterday"), 422, "since");
        assertField(get(server, "/deliveries?callback_id=-1"), 422, "callback_id");
        assertField(get(server, "/deliveries?since=" + after + "&until=" + before), 422, "since");
        assertField(get(server, "/deliveries?since=%2B999999999-12-31T00:00:00Z"), 422, "since");
        assertField(get(server, "/deliveries?until=0001-01-01T00:00:00Z"), 422, "until");
        assertField(post(server, "/callbacks/" + id + "/recover",
                "{\"since\": \"+999999999-12-30T00:00:00Z\", \"until\": \"+999999999-12-31T00:00:00Z\"}"), 422, "since");

        assertEquals("pending", ok(post(server, "/deliveries/" + deliveryId + "/redeliver", "")).at("/delivery/state").asText());
        server.clock.advance(java.time.Duration.ofSeconds(1));
        var both = receiver.await(2);
        assertEquals(both.get(0).header("webhook-id"), both.get(1).header("webhook-id"));
        assertField(post(server, "/deliveries/" + (deliveryId + 999) + "/redeliver", ""), 404, null);
    }

    @Test
    void grantsAreListedByUserOrApplicationAndRevokedWithTheirTokens() {
        var pair = f.issue(Set.of("user:invoices:read"));
        assertEquals(200, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + pair.accessToken()).status());

        JsonNode byUser = ok(get(server, "/grants?user_id=" + f.user().id()));
        assertEquals(1, byUser.get("total").asInt(), byUser.toString());
        assertTrue(byUser.at("/grants/0/active").asBoolean());
        long grantId = byUser.at("/grants/0/id").asLong();
        assertEquals(grantId, ok(get(server, "/grants?application_id=" + f.app().clientId())).at("/grants/0/id").asLong());
        assertField(get(server, "/grants"), 422, "user_id");
        assertField(get(server, "/grants?user_id=me"), 422, "user_id");
        assertField(get(server, "/grants?application_id=nope"), 404, null);

        JsonNode revoked = ok(post(server, "/grants/" + grantId + "/revoke", "")).get("grant");
        assertFalse(revoked.get("active").asBoolean());
        assertEquals(401, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + pair.accessToken()).status());
        assertFalse(ok(get(server, "/grants/" + grantId)).at("/grant/active").asBoolean());
        assertField(post(server, "/grants/" + (grantId + 999) + "/revoke", ""), 404, null);
    }

    @Test
    void theCliListsShowsDisablesAndEnablesCallbacksListsAndRevokesGrantsAndListsAccountsUsersAndMembers() {
        long id = f.verified("invoice", receiver).id();
        var pair = f.issue(Set.of("user:invoices:read"));

        JsonNode list = ServerCli.json(server, "callbacks", "list", "--state", "verified", "--account", f.account().accountId(), "--json");
        assertEquals(id, list.at("/callbacks/0/id").asLong(), list.toString());
        assertEquals("invoice", ServerCli.json(server, "callbacks", "show", Long.toString(id), "--json").at("/callback/event").asText());
        assertEquals("disabled", ServerCli.json(server, "callbacks", "disable", Long.toString(id), "--json").at("/callback/state").asText());
        assertTrue(ok(get(server, "/callbacks/" + id)).at("/callback/disabled").asBoolean(), "the API sees what the CLI did");
        assertEquals("verified", ServerCli.json(server, "callbacks", "enable", Long.toString(id), "--json").at("/callback/state").asText());
        assertEquals(2, ServerCli.run(server, "callbacks", "list", "--state", "asleep").exitCode());

        JsonNode grants = ServerCli.json(server, "grants", "list", "--user", f.user().email(), "--json");
        assertEquals(pair.grantId(), grants.at("/grants/0/id").asLong(), grants.toString());
        assertFalse(ServerCli.json(server, "grants", "revoke", Long.toString(pair.grantId()), "--json").at("/grant/active").asBoolean());
        assertEquals(401, server.http.get("/auth/api/v1/users/me", "Authorization", "Bearer " + pair.accessToken()).status());
        assertEquals(2, ServerCli.run(server, "grants", "list").exitCode(), "a user or an application is required");

        JsonNode accounts = ServerCli.json(server, "accounts", "list", "--per-page", "100", "--json");
        assertTrue(accounts.get("accounts").toString().contains(f.account().accountId()), accounts.toString());
        assertEquals(f.user().email(), ServerCli.json(server, "users", "list", "--json")
                .get("users").findValuesAsText("email").stream().filter(f.user().email()::equals).findFirst().orElse(null));
        JsonNode members = ServerCli.json(server, "accounts", "members", "--account", f.account().accountId(), "--json");
        assertEquals(f.user().id(), members.at("/memberships/0/user_id").asLong(), members.toString());
        assertEquals(2, ServerCli.run(server, "accounts", "list", "--page", "0").exitCode());
    }
}
