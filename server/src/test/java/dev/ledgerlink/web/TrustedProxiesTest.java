package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.FrontEnd;

/**
 * http.trusted-proxies, seen through the per-address login throttle (login.max-failures=1, so an
 * address is blocked after 4 failures): the client address is read from X-Forwarded-For only when
 * the connection comes from a trusted proxy.
 */
@LedgerlinkTest
@FrontEnd
class TrustedProxiesTest {

    @Test
    @ServerSettings({"http.trusted-proxies=10.0.0.0/8, 127.0.0.1, ::1", "login.max-failures=1"})   // a throttle of its own to fill
    void behindATrustedProxyEachForwardedClientIsThrottledOnItsOwn(TestServer server, Fixtures f) {
        failFourTimes(browser(server, f, "203.0.113.7"));
        assertEquals(429, browser(server, f, "203.0.113.7").logIn(f.user().email(), f.password()).status());
        assertEquals(200, browser(server, f, "203.0.113.8").logIn(f.user().email(), f.password()).status(),
                "another client behind the same proxy is not blocked");
        assertEquals(429, browser(server, f, "192.0.2.99, 203.0.113.7").logIn(f.user().email(), f.password()).status(),
                "what the client wrote left of the proxy's entry is not believed");
        assertEquals(429, browser(server, f, "203.0.113.7, 10.1.2.3").logIn(f.user().email(), f.password()).status(),
                "a chain of trusted proxies is walked back to the client");
    }

    @Test
    @ServerSettings({"http.trusted-proxies=127.0.0.1, ::1", "login.max-failures=1"})   // a throttle of its own to fill
    void theConsoleSignInCountsTheForwardedClientToo(TestServer server, Fixtures f) {
        for (int i = 0; i < 4; i++) {
            assertEquals(401, consoleSignIn(server, "203.0.113.7", "nobody" + i + "@example.com", "wrong password").status());
        }
        assertEquals(429, consoleSignIn(server, "203.0.113.7", f.user().email(), f.password()).status());
        assertEquals(303, consoleSignIn(server, "203.0.113.8", f.user().email(), f.password()).status(),
                "another client behind the same proxy is not blocked");
    }

    @Test
    @ServerSettings("login.max-failures=1")
    void withoutTrustedProxiesXForwardedForIsIgnored(TestServer server, Fixtures f) {
        failFourTimes(browser(server, f, "203.0.113.7"));
        var blocked = browser(server, f, "203.0.113.8").logIn(f.user().email(), f.password());
        assertEquals(429, blocked.status(), "every request comes from 127.0.0.1, whatever it claims");
    }

    @Test
    void aTrustedProxyThatIsNotAnAddressStopsTheServerAtStart() {
        var e = assertThrows(ConfigurationException.class,
                () -> TestServer.start(s -> s.set(Setting.TRUSTED_PROXIES, "proxy.internal")).close());
        assertTrue(e.getMessage().contains("http.trusted-proxies"), e.getMessage());
    }

    private static BrowserSession browser(TestServer server, Fixtures f, String forwardedFor) {
        BrowserSession b = BrowserSession.forwardedFor(server, forwardedFor);
        b.get(OAuthFlows.authorizeUrl(f, Map.of()));
        return b;
    }

    private static dev.ledgerlink.testing.TestHttp.Response consoleSignIn(TestServer server, String forwardedFor, String email, String password) {
        return BrowserSession.forwardedFor(server, forwardedFor).consoleSignIn(email, password);
    }

    private static void failFourTimes(BrowserSession b) {
        for (int i = 0; i < 4; i++) b.logIn("nobody" + i + "@example.com", "wrong password");
    }
}
