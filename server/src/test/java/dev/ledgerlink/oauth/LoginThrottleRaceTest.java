package dev.ledgerlink.oauth;

import static dev.ledgerlink.oauth.OAuthFlows.authorizeUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The failed-login throttle under parallel guessing, over real HTTP: with login.max-failures=3, fifty
 * wrong passwords for one account sent at the same moment get at most three password checks; every
 * other try is throttled (429). The authorization page and the console share the rule (PasswordLogin).
 */
@LedgerlinkTest
@ServerSettings({"login.max-failures=3", "events.operator-key=" + LoginThrottleRaceTest.KEY})
class LoginThrottleRaceTest {
    static final String KEY = "login-throttle-race-test-operator-key-0123456789";
    private static final int TRIES = 50;
    private static final int MAX_FAILURES = 3;

    TestServer server;
    Fixtures f;

    @Test
    @FreshServer   // each test fills the loopback address's throttle
    void fiftyParallelWrongPasswordsOnTheAuthorizationPageGetAtMostMaxFailuresChecks() throws Exception {
        List<TestHttp.Response> answers = inParallel(b -> {
            b.get(authorizeUrl(f, Map.of()));
            String action = b.formAction();
            String csrf = b.csrfToken();
            return () -> b.post(action, Map.of("csrf_token", csrf, "action", "login", "email", f.user().email(), "password", "wrong " + csrf));
        });
        assertAtMostMaxFailuresChecked(answers, 200, "do not match an account");

        // The right password is throttled too until the window has passed, then works.
        BrowserSession b = server.closeFirst(new BrowserSession(server.baseUrl()));
        b.get(authorizeUrl(f, Map.of()));
        if (checked(answers, 200) == MAX_FAILURES) assertEquals(429, b.logIn(f.user().email(), f.password()).status());
        server.clock.advance(Duration.ofMinutes(16));
        assertEquals(200, b.logIn(f.user().email(), f.password()).status());
        assertTrue(b.last.body().contains("Authorize Invoice Sync?"), b.last.body());
    }

    @Test
    @FreshServer
    void fiftyParallelWrongPasswordsOnTheConsoleGetAtMostMaxFailuresChecks() throws Exception {
        List<TestHttp.Response> answers = inParallel(b -> {
            b.get("/console/sign-in");
            String csrf = b.csrfToken();
            return () -> b.post("/console/sign-in", Map.of("csrf_token", csrf, "as", "user", "email", f.user().email(), "password", "wrong " + csrf));
        });
        assertAtMostMaxFailuresChecked(answers, 401, "do not match an account");
    }

    @Test
    @FreshServer
    void fiftyParallelWrongOperatorKeysGetAtMostMaxFailuresChecks() throws Exception {
        List<TestHttp.Response> answers = inParallel(b -> {
            b.get("/console/sign-in");
            String csrf = b.csrfToken();
            return () -> b.post("/console/sign-in", Map.of("csrf_token", csrf, "as", "operator", "operator_key", KEY + csrf));
        });
        assertAtMostMaxFailuresChecked(answers, 401, "not the operator key");
    }

    /** A sign-in form's POST, prepared beforehand (page, cookie, CSRF token) so that all can be sent at once. */
    private interface Prepared {
        TestHttp.Response send();
    }

    /** Prepares {@link #TRIES} browsers one by one, then sends their posts together and collects the answers. */
    private List<TestHttp.Response> inParallel(Function<BrowserSession, Prepared> prepare) throws Exception {
        List<Prepared> posts = new ArrayList<>();
        for (int i = 0; i < TRIES; i++) posts.add(prepare.apply(server.closeFirst(new BrowserSession(server.baseUrl()))));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<TestHttp.Response>> sent = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Prepared p : posts) {
                sent.add(threads.submit(() -> {
                    go.await();
                    return p.send();
                }));
            }
            go.countDown();
            List<TestHttp.Response> answers = new ArrayList<>();
            for (Future<TestHttp.Response> s : sent) answers.add(s.get());
            return answers;
        }
    }

    private static long checked(List<TestHttp.Response> answers, int wrongStatus) {
        return answers.stream().filter(r -> r.status() == wrongStatus).count();
    }

    private static void assertAtMostMaxFailuresChecked(List<TestHttp.Response> answers, int wrongStatus, String wrongText) {
        long checked = checked(answers, wrongStatus);
        long throttled = answers.stream().filter(r -> r.status() == 429).count();
        StringBuilder statuses = new StringBuilder();
        answers.forEach(r -> statuses.append(r.status()).append(' '));
        assertEquals(TRIES, checked + throttled, "every try is either checked or throttled: " + statuses);
        assertTrue(checked <= MAX_FAILURES, checked + " passwords were checked, at most " + MAX_FAILURES + " may be: " + statuses);
        answers.stream().filter(r -> r.status() == wrongStatus)
                .forEach(r -> assertTrue(r.body().contains(wrongText), r.body()));
        answers.stream().filter(r -> r.status() == 429)
                .forEach(r -> assertTrue(r.body().contains("Too many failed sign-in attempts"), r.body()));
    }
}
