package dev.ledgerlink.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.TokenPrincipal;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who may use the console and see what, over real HTTP: sign-in, CSRF, accounts, the operator key and its throttle, the switch. */
@LedgerlinkTest
@FrontEnd
class ConsoleAccessTest {
    static TestServer server;
    static final String KEY = "console-access-test-operator-key-0123456789";

    @Test
    void consoleIsOffOutsideDevelopmentModeUnlessEnabled() {
        try (TestServer off = TestServer.start(s -> s.set(Setting.DEV, "false").set(Setting.OPERATOR_KEY, KEY))) {
            assertEquals(404, new BrowserSession(off.baseUrl()).get("/console/sign-in").status());
        }
        try (TestServer on = TestServer.start(s -> s.set(Setting.DEV, "false").set(Setting.OPERATOR_KEY, KEY).set(Setting.CONSOLE_ENABLED, "true"))) {
            BrowserSession b = new BrowserSession(on.baseUrl());
            assertEquals(200, b.get("/console/sign-in").status());
            assertEquals(303, signInAsOperator(b, KEY).status());
            var page = b.get("/console/applications");
            assertEquals(200, page.status());
            assertFalse(page.body().contains("Create an application"), "outside development mode applications are not created here");
            var refused = b.post("/console/applications", Map.of("csrf_token", b.csrfToken(), "name", "X", "account_id", "x",
                    "redirect_uris", "https://x.example.com/cb", "scope", "user:profile:read"));
            assertEquals(403, refused.status());
            assertTrue(refused.body().contains("development mode only"), refused.body());
        }
    }

    @Test
    void pagesNeedASignedInViewerAndFormsTheSessionsCsrfToken(Fixtures f) {
        BrowserSession b = new BrowserSession(server.baseUrl());
        var page = b.get("/console/callbacks");
        assertEquals(302, page.status());
        assertEquals("/console/sign-in", page.header("Location"));
        assertEquals(403, b.post("/console/test-event", Map.of("account_id", f.account().accountId(), "name", "invoice.create",
                "object_id", "1", "user_id", "1")).status());

        assertEquals(303, b.consoleSignIn(f.user().email(), f.password()).status());
        b.get("/console/test-event");
        String csrf = b.csrfToken();
        var forged = b.post("/console/test-event", Map.of("csrf_token", "not-the-token", "account_id", f.account().accountId(),
                "name", "invoice.create", "object_id", "1", "user_id", "1"));
        assertEquals(403, forged.status());
        assertTrue(forged.body().contains("This form has expired"), forged.body());
        var published = b.post("/console/test-event", Map.of("csrf_token", csrf, "account_id", f.account().accountId(),
                "name", "invoice.create", "object_id", "1", "user_id", "1"));
        assertEquals(303, published.status(), published.body());
        assertTrue(published.header("Location").startsWith("/console/activity?notice=published&ref="), published.header("Location"));

        var pageHeaders = b.get("/console/activity");
        assertTrue(pageHeaders.header("Content-Security-Policy").contains("frame-ancestors 'none'"));
        assertEquals("no-store", pageHeaders.header("Cache-Control"));
        assertEquals(303, b.post("/console/sign-out", Map.of("csrf_token", csrf)).status());
        assertEquals(302, b.get("/console/activity").status());
    }

    @Test
    void aUserSeesOnlyTheirOwnAccounts(Fixtures mine) {
        Fixtures theirs = Fixtures.create(server);
        var s = server.services();
        TokenPrincipal them = s.tokens().verify(theirs.issue().accessToken()).orElseThrow();
        Callback other = s.callbacks().register(them, theirs.account().accountId(), "invoice", "http://127.0.0.1:9/hook");

        mine.issue();
        BrowserSession b = new BrowserSession(server.baseUrl());
        b.consoleSignIn(mine.user().email(), mine.password());
        String apps = b.get("/console/applications").body();
        assertTrue(apps.contains(mine.app().clientId()), "an application a member authorized is one of the account's");
        assertFalse(apps.contains(theirs.app().clientId()));
        assertFalse(b.get("/console/callbacks").body().contains("#" + other.id() + "<"));
        assertEquals(404, b.get("/console/callbacks/" + other.id() + "/deliveries").status());
        b.get("/console/callbacks");
        String csrf = b.csrfToken();
        assertEquals(404, b.post("/console/callbacks/" + other.id() + "/resend", Map.of("csrf_token", csrf)).status());
        assertEquals(404, b.post("/console/grants/revoke", Map.of("csrf_token", csrf,
                "user_id", Long.toString(theirs.user().id()), "application_id", Long.toString(theirs.app().id()))).status());
        assertEquals(1, s.tokens().liveRefreshTokens(theirs.user().id(), theirs.app().id()));
        var elsewhere = b.post("/console/test-event", Map.of("csrf_token", csrf, "account_id", theirs.account().accountId(),
                "name", "invoice.create", "object_id", "1", "user_id", "1"));
        assertEquals(422, elsewhere.status());
        assertTrue(elsewhere.body().contains("Choose one of your accounts"), elsewhere.body());
        assertFalse(b.get("/console/grants").body().contains(theirs.user().email()));
    }

    @Test
    void anApplicationCreatedOnTheCommandLineForAnAccountIsOneOfItsApplications() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        try (TestServer server = TestServer.start(db, b -> b)) {
            Fixtures f = Fixtures.create(server);
            Cli.Result created = new Cli(db).run("apps", "create", "--name", "CLI Made", "--redirect-uri", "https://cli.example.com/cb",
                    "--scope", "user:profile:read", "--account", f.account().accountId(), "--json");
            assertEquals(0, created.exitCode(), created.out() + created.err());
            String clientId = created.json().get("client_id").asText();
            assertEquals(f.account().accountId(), server.services().applications().findByClientId(clientId).orElseThrow().ownerAccountId());
            BrowserSession b = new BrowserSession(server.baseUrl());
            b.consoleSignIn(f.user().email(), f.password());
            assertTrue(b.get("/console/applications").body().contains(clientId));
            Cli.Result unknown = new Cli(db).run("apps", "create", "--name", "Nowhere", "--redirect-uri", "https://cli.example.com/cb",
                    "--scope", "user:profile:read", "--account", "NOSUCH");
            assertTrue(unknown.exitCode() != 0 && (unknown.out() + unknown.err()).contains("no account has the id NOSUCH"), unknown.out() + unknown.err());
        }
    }

    @Test
    @ServerSettings({"events.operator-key=" + KEY, "login.max-failures=2"})   // a throttle of its own to fill
    void theOperatorKeyIsComparedAndItsFailuresThrottled(TestServer server) {
        BrowserSession b = new BrowserSession(server.baseUrl());
        assertEquals(401, signInAsOperator(b, KEY + "x").status());
        assertEquals(401, signInAsOperator(b, "short").status());
        TestHttp.Response throttled = signInAsOperator(b, KEY);
        assertEquals(429, throttled.status());
        assertTrue(throttled.body().contains("Too many failed sign-in attempts"), throttled.body());
        assertTrue(Long.parseLong(throttled.header("Retry-After")) > 0);
    }

    private static TestHttp.Response signInAsOperator(BrowserSession b, String key) {
        b.get("/console/sign-in");
        return b.post("/console/sign-in", Map.of("csrf_token", b.csrfToken(), "as", "operator", "operator_key", key));
    }
}
