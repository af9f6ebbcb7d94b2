package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The second factor over HTTP, as a browser without JavaScript goes through it: enrolment on the
 * account page, then every sign-in (authorization page, account page, console) asks for a code
 * after the password. A code works once; wrong codes are throttled like passwords; recovery codes
 * work once each; codes follow real time (the node's clock), not the sandbox's moved one; an
 * operator can reset it; tokens issued without the page are unaffected. (The browser test is
 * AccountBrowserTest; the audit lines are AuditTrailTest's.)
 */
@LedgerlinkTest
@ServerSettings("events.operator-key=" + SecondFactorTest.KEY)
class SecondFactorTest {
    static final String KEY = "test-operator-key-second-factor-0123";
    private static final Pattern SECRET = Pattern.compile("<code id=\"secret\" class=\"secret\">([A-Z2-7 ]+)</code>");
    private static final Pattern RECOVERY = Pattern.compile("<li><code>([0-9a-z-]{19})</code></li>");

    TestServer server;

    /** What enrolling gave the user: the authenticator's secret and the recovery codes. */
    record Enrolled(byte[] secret, List<String> recoveryCodes, BrowserSession browser) {
        /** The code the authenticator shows {@code steps} 30-second steps after the server's current one. */
        String code(TestServer server, int steps) {
            return Totp.codeAt(secret, Totp.stepAt(server.clock.instant()) + steps);
        }
    }

    private BrowserSession browser() {
        return server.closeFirst(new BrowserSession(server.baseUrl()));
    }

    private BrowserSession signedIn(Fixtures f) {
        BrowserSession b = browser();
        b.get("/oauth/account");
        b.logIn(f.user().email(), f.password());
        assertEquals(303, b.last.status(), b.last.body());
        b.get("/oauth/account");
        return b;
    }

    /** Sets up an authenticator on the account page and confirms it with its current code. */
    private Enrolled enrol(Fixtures f) {
        BrowserSession b = signedIn(f);
        b.post("/oauth/account/second-factor/setup", Map.of("csrf_token", b.csrfToken()));
        assertEquals(200, b.last.status(), b.last.body());
        Matcher m = SECRET.matcher(b.last.body());
        assertTrue(m.find(), b.last.body());
        byte[] secret = Totp.fromBase32(m.group(1).replace(" ", ""));
        assertTrue(b.last.body().contains("<svg"), "the QR code");
        b.post("/oauth/account/second-factor/confirm", Map.of("csrf_token", b.csrfToken(), "code", Totp.codeAt(secret, Totp.stepAt(server.clock.instant()))));
        assertEquals(200, b.last.status(), b.last.body());
        List<String> codes = new ArrayList<>();
        Matcher r = RECOVERY.matcher(b.last.body());
        while (r.find()) codes.add(r.group(1));
        assertEquals(RecoveryCodes.COUNT, codes.size(), b.last.body());
        assertTrue(server.services().oauth().secondFactor().enrolled(f.user().id()));
        return new Enrolled(secret, codes, b);
    }

    /** The authorization page up to the code form: the password was right. */
    private BrowserSession atCodeForm(Fixtures f) {
        BrowserSession b = browser();
        b.get(OAuthFlows.authorizeUrl(f, Map.of("state", "s")));
        b.logIn(f.user().email(), f.password());
        assertEquals(200, b.last.status(), b.last.body());
        assertTrue(b.last.body().contains("Two-step sign-in"), "the code is asked for, not the consent: " + b.last.body());
        return b;
    }

    private TestHttp.Response typeCode(BrowserSession b, String code) {
        return b.submit(Map.of("action", "second_factor", "code", code));
    }

    @Test
    void onceEnrolledTheAuthorizationPageAsksForTheCodeAfterThePassword(Fixtures f) {
        Enrolled e = enrol(f);
        BrowserSession b = atCodeForm(f);
        assertFalse(b.last.body().contains("id=\"authorize\""));
        typeCode(b, e.code(server, 1));
        assertEquals(200, b.last.status(), b.last.body());
        assertTrue(b.last.body().contains("id=\"authorize\""), "then the consent page: " + b.last.body());
        b.authorize();
        assertEquals(303, b.last.status());
        var tokens = OAuthFlows.exchange(server, f, b.redirectParams().get("code"));
        assertEquals(200, tokens.status(), "the authorization code flow works on: " + tokens.body());
    }

    @Test
    void aCodeWorksOnceAndAWrongOneIsRefused(Fixtures f) {
        Enrolled e = enrol(f);
        String code = e.code(server, 1);
        BrowserSession first = atCodeForm(f);
        typeCode(first, code);
        assertTrue(first.last.body().contains("id=\"authorize\""), first.last.body());

        BrowserSession replay = atCodeForm(f);
        typeCode(replay, code);
        assertTrue(replay.last.body().contains("used already"), "a code cannot be replayed: " + replay.last.body());
        assertFalse(replay.last.body().contains("id=\"authorize\""));
        typeCode(replay, e.code(server, 0));
        assertTrue(replay.last.body().contains("used already"), "nor an older one once a newer was used: " + replay.last.body());
        typeCode(replay, "000000".equals(e.code(server, 2)) ? "111111" : "000000");
        assertTrue(replay.last.body().contains("not right"), replay.last.body());

        server.clock.advance(Totp.STEP);
        typeCode(replay, e.code(server, 1));
        assertTrue(replay.last.body().contains("id=\"authorize\""), "the next code works: " + replay.last.body());
    }

    /** Brute force: wrong codes are counted like wrong passwords; past the limit even the right code is not checked (429). */
    @Test
    @FreshServer
    @ServerSettings("login.max-failures=3")
    void guessingCodesIsThrottledLikePasswords(TestServer fresh) {
        Fixtures f = Fixtures.create(fresh);
        server = fresh;
        Enrolled e = enrol(f);
        String right = e.code(server, 1);
        String wrong = right.equals("123456") ? "654321" : "123456";
        BrowserSession b = atCodeForm(f);
        for (int i = 0; i < 3; i++) {
            typeCode(b, wrong);
            assertTrue(b.last.body().contains("not right"), b.last.body());
        }
        typeCode(b, right);
        assertEquals(429, b.last.status(), b.last.body());
        assertNotNull(b.last.header("Retry-After"));
        assertTrue(b.last.body().contains("Too many wrong codes"), b.last.body());
        BrowserSession again = atCodeForm(f);   // a right password again does not forgive wrong codes
        typeCode(again, right);
        assertEquals(429, again.last.status());

        server.clock.advance(Duration.ofMinutes(16));   // the window passes
        BrowserSession later = atCodeForm(f);
        typeCode(later, e.code(server, 0));
        assertTrue(later.last.body().contains("id=\"authorize\""), later.last.body());
    }

    @Test
    void aRecoveryCodeSignsInOnceInAnyCaseWithOrWithoutDashes(Fixtures f) {
        Enrolled e = enrol(f);
        String code = e.recoveryCodes().get(3);
        BrowserSession b = atCodeForm(f);
        typeCode(b, code.toUpperCase().replace("-", " "));
        assertTrue(b.last.body().contains("id=\"authorize\""), b.last.body());
        assertEquals(RecoveryCodes.COUNT - 1, server.services().oauth().secondFactor().recoveryCodesLeft(f.user().id()));
        BrowserSession again = atCodeForm(f);
        typeCode(again, code);
        assertTrue(again.last.body().contains("used already"), again.last.body());
    }

    /** An authenticator knows only real time: moving the sandbox's clock changes nothing for codes. */
    @Test
    void codesFollowRealTimeNotTheSandboxClock(Fixtures f) {
        Enrolled e = enrol(f);
        String[] operator = {"Authorization", "Bearer " + KEY};
        assertEquals(200, server.http.postJson("/sandbox/v1/clock", "{\"advance\": \"PT2H\"}", operator).status());
        try {
            BrowserSession b = atCodeForm(f);
            String sandboxTime = Totp.codeAt(e.secret(), Totp.stepAt(server.clock.instant().plus(Duration.ofHours(2))));
            typeCode(b, sandboxTime);
            assertTrue(b.last.body().contains("not right"), "a code of the sandbox's time: " + b.last.body());
            typeCode(b, e.code(server, 1));
            assertTrue(b.last.body().contains("id=\"authorize\""), "the code of real time: " + b.last.body());
        } finally {
            assertEquals(200, server.http.delete("/sandbox/v1/clock", operator).status());
        }
    }

    @Test
    void theAccountPageAndTheConsoleAskForTheCodeToo(Fixtures f) {
        Enrolled e = enrol(f);
        BrowserSession account = browser();
        account.get("/oauth/account");
        account.logIn(f.user().email(), f.password());
        assertEquals(200, account.last.status());
        assertTrue(account.last.body().contains("Two-step sign-in"), account.last.body());
        account.get("/oauth/account");
        assertTrue(account.last.body().contains("name=\"code\""), "still waiting for the code, not signed in: " + account.last.body());
        typeCode(account, e.code(server, 1));
        assertEquals(303, account.last.status(), account.last.body());
        account.get("/oauth/account");
        assertTrue(account.last.body().contains("Connected applications"), account.last.body());

        server.clock.advance(Totp.STEP);
        BrowserSession console = browser();
        console.consoleSignIn(f.user().email(), f.password());
        assertEquals(200, console.last.status(), console.last.body());
        assertTrue(console.last.body().contains("Two-step sign-in"), console.last.body());
        console.get("/console/applications");
        assertEquals(302, console.last.status(), "not signed in before the code");
        console.post("/console/sign-in", Map.of("csrf_token", csrfOf(console), "as", "second_factor", "code", e.code(server, 1)));
        assertEquals(303, console.last.status(), console.last.body());
        console.get("/console/applications");
        assertEquals(200, console.last.status());
    }

    private static String csrfOf(BrowserSession b) {
        b.get("/console/sign-in");   // the waiting session's page: its sign-in form carries the token
        return b.csrfToken();
    }

    @Test
    void anOperatorResetsItAndTokensWithoutThePageNeverAsked(Fixtures f) {
        enrol(f);
        var issued = server.services().oauth().operatorGrant().issue(f.user().email(), f.app().clientId(), List.of());
        assertEquals(200, OAuthFlows.apiStatus(server, issued.response().accessToken()), "tokens issue: no page, no second factor");

        var reset = server.http.postJson("/internal/v1/admin/users/" + f.user().id() + "/reset-second-factor", "", "Authorization", "Bearer " + KEY);
        assertEquals(200, reset.status(), reset.body());
        assertTrue(reset.json().get("second_factor").get("removed").asBoolean());
        BrowserSession b = browser();
        b.get(OAuthFlows.authorizeUrl(f, Map.of()));
        b.logIn(f.user().email(), f.password());
        assertEquals(303, b.last.status(), "the password alone again (consent remembered): " + b.last.body());

        enrol(f);
        var cli = dev.ledgerlink.testing.ServerCli.json(server, "users", "reset-second-factor", "--user", f.user().email(), "--json");
        assertTrue(cli.at("/second_factor/removed").asBoolean());
        assertFalse(server.services().oauth().secondFactor().enrolled(f.user().id()));
    }

    @Test
    void theUserTurnsItOffWithACode(Fixtures f) {
        Enrolled e = enrol(f);
        BrowserSession b = e.browser();   // the enrolment's own session: signed in before the second factor
        b.get("/oauth/account");
        b.post("/oauth/account/second-factor/remove", Map.of("csrf_token", b.csrfToken(), "code", "000000".equals(e.code(server, 1)) ? "1" : "000000"));
        assertEquals(422, b.last.status(), b.last.body());
        assertTrue(server.services().oauth().secondFactor().enrolled(f.user().id()));
        b.post("/oauth/account/second-factor/remove", Map.of("csrf_token", b.csrfToken(), "code", e.code(server, 1)));
        assertEquals(303, b.last.status(), b.last.body());
        assertFalse(server.services().oauth().secondFactor().enrolled(f.user().id()));
    }

    /** Every line the server logs (every level) while a user enrols, signs in with a code and with a recovery code: none holds the secret or a code. */
    @Test
    void noSecretOrCodeReachesAnyLogLine(Fixtures f) {
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        var appender = new ch.qos.logback.core.AppenderBase<ch.qos.logback.classic.spi.ILoggingEvent>() {
            @Override
            protected void append(ch.qos.logback.classic.spi.ILoggingEvent e) {
                logged.add(e.getFormattedMessage() + " " + e.getKeyValuePairs() + " " + java.util.Arrays.toString(e.getArgumentArray()));
            }
        };
        appender.setContext(root.getLoggerContext());
        appender.start();
        root.addAppender(appender);
        List<String> secrets = new ArrayList<>();
        try {
            Enrolled e = enrol(f);
            secrets.add(Totp.base32(e.secret()));
            secrets.add(e.code(server, 0));
            secrets.addAll(e.recoveryCodes());
            BrowserSession b = atCodeForm(f);
            String wrong = e.code(server, 1).equals("123456") ? "654321" : "123456";
            typeCode(b, wrong);
            typeCode(b, e.code(server, 1));
            secrets.addAll(List.of(wrong, e.code(server, 1)));
            BrowserSession r = atCodeForm(f);
            typeCode(r, e.recoveryCodes().getFirst());
        } finally {
            root.detachAppender(appender);
        }
        assertFalse(logged.isEmpty(), "the server logged something (requests, audit lines)");
        for (String line : logged) {
            for (String secret : secrets) assertFalse(line.contains(secret), "a secret or code reached the log: " + line);
        }
    }
}
