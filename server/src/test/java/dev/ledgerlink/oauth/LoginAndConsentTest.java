package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.authorizeUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.net.HttpCookie;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LedgerlinkTest
@ServerSettings("login.max-failures=3")
class LoginAndConsentTest {
    TestServer server;
    Fixtures f;
    BrowserSession browser;

    @BeforeEach
    void start() {
        browser = server.closeFirst(new BrowserSession(server.baseUrl()));
    }

    @Test
    void consentPageNamesTheApplicationAndEachScopeInPlainWords() {
        browser.get(authorizeUrl(f, Map.of("state", "abc")));
        var page = browser.logIn(f.user().email(), f.password());
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("Authorize Invoice Sync?"));
        for (String scope : Fixtures.SCOPES) assertTrue(page.body().contains(Scopes.describe(scope)), scope);
        assertTrue(page.body().contains(">Deny<") && page.body().contains(">Authorize<"));
        browser.authorize();
        assertEquals(303, browser.last.status());
        Map<String, String> q = browser.redirectParams();
        assertEquals("abc", q.get("state"));
        assertNotNull(q.get("code"));
        assertTrue(browser.last.header("Location").startsWith(Fixtures.REDIRECT_URI + "?code="));
    }

    @Test
    void denyRedirectsWithAccessDeniedAndState() {
        browser.get(authorizeUrl(f, Map.of("state", "keep me")));
        browser.logIn(f.user().email(), f.password());
        browser.deny();
        assertEquals(303, browser.last.status());
        assertEquals("access_denied", browser.redirectParams().get("error"));
        assertEquals("keep me", browser.redirectParams().get("state"));
    }

    @Test
    void rememberedConsentIsNotAskedAgainButPromptConsentAsksAnyway() {
        OAuthFlows.code(server, f, Map.of());
        browser.get(authorizeUrl(f, Map.of()));
        browser.logIn(f.user().email(), f.password());
        assertEquals(303, browser.last.status(), "consent remembered: straight back with a code");
        assertNotNull(browser.redirectParams().get("code"));

        var again = browser.get(authorizeUrl(f, Map.of("state", "s")));
        assertEquals(302, again.status(), "signed in and consented: no page at all");
        assertNotNull(browser.redirectParams().get("code"));

        var asked = browser.get(authorizeUrl(f, Map.of("prompt", "consent")));
        assertEquals(200, asked.status());
        assertTrue(asked.body().contains("Authorize Invoice Sync?"));
    }

    @Test
    void largerScopeThanConsentedIsAskedAgain() {
        OAuthFlows.code(server, f, Map.of("scope", "user:profile:read"));
        browser.get(authorizeUrl(f, Map.of("scope", "user:profile:read user:clients:read")));
        var page = browser.logIn(f.user().email(), f.password());
        assertEquals(200, page.status());
        assertTrue(page.body().contains(Scopes.describe("user:clients:read")));
    }

    @Test
    void promptLoginForcesAFreshLogin() {
        OAuthFlows.code(server, f, Map.of());
        browser.get(authorizeUrl(f, Map.of()));
        browser.logIn(f.user().email(), f.password());
        var forced = browser.get(authorizeUrl(f, Map.of("prompt", "login")));
        assertEquals(200, forced.status());
        assertTrue(forced.body().contains("Sign in to continue"));
        browser.logIn(f.user().email(), f.password());
        assertEquals(303, browser.last.status());
        assertNotNull(browser.redirectParams().get("code"));
    }

    @Test
    void wrongPasswordShowsTheFormAgain() {
        browser.get(authorizeUrl(f, Map.of()));
        var r = browser.logIn(f.user().email(), "wrong password");
        assertEquals(200, r.status());
        assertTrue(r.body().contains("do not match an account"), r.body());
        assertTrue(r.body().contains("Sign in to continue"));
    }

    @Test
    @FreshServer   // its failed logins would throttle this address for the class's other tests
    void repeatedFailedLoginsOfAnAccountAreThrottledEvenWithTheRightPassword() {
        browser.get(authorizeUrl(f, Map.of()));
        for (int i = 0; i < 3; i++) browser.logIn(f.user().email(), "wrong password " + i);
        var blocked = browser.logIn(f.user().email(), f.password());
        assertEquals(429, blocked.status(), blocked.body());
        assertNotNull(blocked.header("Retry-After"));
        assertTrue(blocked.body().contains("Too many failed sign-in attempts"));
        server.clock.advance(Duration.ofMinutes(15).plusSeconds(1));
        browser.logIn(f.user().email(), f.password());
        assertEquals(200, browser.last.status(), "after the window the right password works");
        assertTrue(browser.last.body().contains("Authorize Invoice Sync?"));
    }

    @Test
    @FreshServer   // its failed logins would throttle this address for the class's other tests
    void oneAddressTryingManyAccountsIsThrottled() {
        browser.get(authorizeUrl(f, Map.of()));
        for (int i = 0; i < 3 * LoginThrottle.ADDRESS_FACTOR; i++) browser.logIn("nobody" + i + "@example.com", "wrong password");
        var blocked = browser.logIn(f.user().email(), f.password());
        assertEquals(429, blocked.status(), blocked.body());
    }

    @Test
    void formWithoutTheRightCsrfTokenIsRefused() {
        browser.get(authorizeUrl(f, Map.of()));
        String action = browser.formAction();
        var forged = browser.post(action, Map.of("csrf_token", "forged", "action", "login", "email", f.user().email(), "password", f.password()));
        assertEquals(403, forged.status());
        assertTrue(forged.body().contains("This form has expired"));
        var missing = browser.post(action, Map.of("action", "login", "email", f.user().email(), "password", f.password()));
        assertEquals(403, missing.status());
        BrowserSession stranger = server.closeFirst(new BrowserSession(server.baseUrl()));
        var noCookie = stranger.post(action, Map.of("csrf_token", "x", "action", "login", "email", f.user().email(), "password", f.password()));
        assertEquals(403, noCookie.status());
    }

    @Test
    void consentAnswerNeedsTheCsrfTokenOfTheSession() {
        browser.get(authorizeUrl(f, Map.of()));
        browser.logIn(f.user().email(), f.password());
        var forged = browser.post(browser.formAction(), Map.of("csrf_token", "forged", "action", "authorize"));
        assertEquals(403, forged.status());
    }

    @Test
    void loginReplacesTheSessionAndTheCookieHoldsOnlyARandomId() {
        browser.get(authorizeUrl(f, Map.of()));
        String before = sessionCookie();
        browser.logIn(f.user().email(), f.password());
        String after = sessionCookie();
        assertFalse(before.equals(after), "a new session id after login");
        assertTrue(after.matches("[A-Za-z0-9_-]{43}"));
        long stored = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select count(*) from oauth_login_sessions where session_hash = :v").bind("v", after).mapTo(Long.class).one());
        assertEquals(0, stored, "only the hash is stored");
    }

    private String sessionCookie() {
        return browser.cookies().getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("ledgerlink_session")).map(HttpCookie::getValue).findFirst().orElseThrow();
    }
}
