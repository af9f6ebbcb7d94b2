package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.secrets.HashingMemoryHold;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Metrics;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A flood of sign-ins from many addresses (which the per-address throttle does not stop) while the
 * password hashes already running fill their memory ({@link HashingMemoryHold}): each sign-in waits
 * at most secrets.argon2-max-wait, then gets its form back as a 503 with Retry-After, on the
 * authorization page and in the console alike. Nothing was checked, so nothing is counted: no
 * failure is recorded, and the account signs in at once afterwards.
 */
@LedgerlinkTest
@ServerSettings({"secrets.argon2-max-wait=PT0.2S", "login.max-failures=2", "http.trusted-proxies=127.0.0.1, ::1"})
class SignInFloodTest {
    private static final int SIGN_INS = 40;

    @Test
    void signInsThatCannotBeCheckedInTimeAre503sWithRetryAfterAndCountForNothing(TestServer server, Fixtures f) throws Exception {
        double refusedBefore = Metrics.value(server, "ledgerlink_password_hashes_refused_total").orElseThrow();
        List<Future<TestHttp.Response>> answers = new ArrayList<>();
        try (var held = HashingMemoryHold.all(); var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < SIGN_INS; i++) {
                String address = "203.0.113." + i;
                // The user's own e-mail twice (more tries of one account at once would be throttled
                // first: the throttle counts tries in flight), the others unknown ones, which are
                // checked against a dummy hash all the same.
                String email = i < 2 ? f.user().email() : "nobody" + i + "@example.com";
                String password = i == 0 ? f.password() : "wrong password " + i;
                boolean authorizationPage = i % 2 == 0;
                answers.add(pool.submit(() -> authorizationPage
                        ? browser(server, f, address).logIn(email, password)
                        : consoleSignIn(server, address, email, password)));
            }
            assertEquals(0, Metrics.value(server, "ledgerlink_password_hash_memory_free_bytes").orElseThrow(), "the budget is taken");
            for (int i = 0; i < SIGN_INS; i++) {
                TestHttp.Response r = answers.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS);   // without a bound on the wait: never
                assertEquals(503, r.status(), "sign-in " + i + ": " + r.body());
                assertEquals("1", r.header("Retry-After"), "sign-in " + i);
                assertTrue(r.body().contains("Too many people are signing in right now"), r.body());
                assertTrue(r.body().contains("name=\"password\""), "the form again: " + r.body());
            }
        }
        assertEquals(refusedBefore + SIGN_INS, Metrics.value(server, "ledgerlink_password_hashes_refused_total").orElseThrow(),
                "each refused check is counted");
        long counted = server.services().database().jdbi().withHandle(h ->
                h.createQuery("select count(*) from oauth_login_failures").mapTo(Long.class).one());
        assertEquals(0, counted, "no try of the flood was recorded as a failure");
        TestHttp.Response signedIn = browser(server, f, "203.0.113.0").logIn(f.user().email(), f.password());
        assertEquals(200, signedIn.status(), signedIn.body());
        assertTrue(signedIn.body().contains("Authorize " + f.app().name()), "the consent page: " + signedIn.body());
        assertEquals(303, consoleSignIn(server, "203.0.113.1", f.user().email(), f.password()).status());
    }

    private static TestHttp.Response consoleSignIn(TestServer server, String forwardedFor, String email, String password) {
        return BrowserSession.forwardedFor(server, forwardedFor).consoleSignIn(email, password);
    }

    private static BrowserSession browser(TestServer server, Fixtures f, String forwardedFor) {
        BrowserSession b = BrowserSession.forwardedFor(server, forwardedFor);
        b.get(OAuthFlows.authorizeUrl(f, Map.of()));
        return b;
    }
}
