package dev.ledgerlink.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.testing.Chromium;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The console's sandbox pages in a real headless Chromium (development mode): a user adds a fault
 * rule with the form and sees it listed with what it has left, the app's token call gets the rule's
 * 503, and the Requests page shows that call and a refused one with its error, never a token. Each
 * page passes the accessibility check and leaves a screenshot in target/console-screenshots.
 */
@FrontEnd
@Heavy
class SandboxConsoleBrowserTest {
    @TempDir
    Path profile;

    @Test
    void aUserAddsAFaultRuleAndReadsWhyTheTokenCallsFailed() throws Exception {
        try (TestServer server = TestServer.start(s -> s.set(Setting.OPERATOR_KEY, "operator-key-for-the-sandbox-console-0123456789"))) {
            var s = server.services();
            Fixtures f = Fixtures.create(server);
            ApplicationService.Created owned = s.applications().create("Books Sync", List.of("https://sync.example.com/oauth/callback"),
                    List.of("user:profile:read"), f.account().accountId());
            TokenPair tokens = s.tokens().issue(f.user().id(), owned.application().id(), owned.application().scopes());

            ChromeDriver browser = Chromium.start(profile, 1280, 1000);
            try {
                browser.get(server.baseUrl() + "/console/sign-in");
                browser.findElement(By.id("email")).sendKeys(f.user().email());
                browser.findElement(By.id("password")).sendKeys(f.password());
                browser.findElement(By.id("sign-in")).click();
                browser.findElement(By.xpath("//h1[text()='Applications']"));

                browser.findElement(By.linkText("Faults")).click();
                browser.findElement(By.xpath("//h1[text()='Faults']"));
                assertTrue(text(browser).contains("No fault rules"), text(browser));
                ConsoleBrowserTest.page(browser, "faults-empty");

                browser.findElement(By.cssSelector("#fault-route option[value='token']")).click();
                browser.findElement(By.cssSelector("#fault-client option[value='" + owned.application().clientId() + "']")).click();
                browser.findElement(By.cssSelector("#fault-grant option[value='refresh_token']")).click();
                browser.findElement(By.cssSelector("#fault-effect option[value='503']")).click();
                browser.findElement(By.id("fault-value")).clear();
                browser.findElement(By.id("fault-value")).sendKeys("2");
                browser.findElement(By.id("fault-times")).clear();
                browser.findElement(By.id("fault-times")).sendKeys("2");
                browser.findElement(By.id("add-fault")).click();
                browser.findElement(By.xpath("//p[@role='status'][contains(., 'was added')]"));
                String listed = browser.findElement(By.id("faults")).getText();
                assertTrue(listed.contains(owned.application().clientId()) && listed.contains("503, Retry-After 2 s") && listed.contains("2 of 2"), listed);
                ConsoleBrowserTest.page(browser, "faults");

                // A rule the form cannot make: the problem is shown, nothing is stored.
                browser.findElement(By.cssSelector("#fault-route option[value='identity']")).click();
                browser.findElement(By.cssSelector("#fault-effect option[value='invalid_grant']")).click();
                browser.findElement(By.id("add-fault")).click();
                assertTrue(browser.findElement(By.cssSelector("p[role=alert]")).getText().contains("token route only"), text(browser));
                assertEquals(1, s.faults().list().size());

                // The app's refresh meets the rule twice; then a call is refused for its own reason.
                String form = "grant_type=refresh_token&refresh_token=" + tokens.refreshToken();
                String basic = "Basic " + Base64.getEncoder().encodeToString((owned.application().clientId() + ":" + owned.clientSecret()).getBytes());
                for (int i = 0; i < 2; i++) assertEquals(503, server.http.postForm("/auth/oauth/token", form, "Authorization", basic).status());
                TestHttp.Response refused = server.http.postForm("/auth/oauth/token", "grant_type=refresh_token&refresh_token=nope",
                        "Authorization", basic);
                assertEquals(400, refused.status());
                assertEquals(0, s.faults().list().getFirst().remaining(), "both of its times taken");

                browser.findElement(By.linkText("Requests")).click();
                browser.findElement(By.xpath("//h1[text()='Requests']"));
                String journal = browser.findElement(By.id("requests")).getText();
                assertTrue(journal.contains("POST /auth/oauth/token") && journal.contains("503") && journal.contains("temporarily_unavailable"), journal);
                assertTrue(journal.contains("sandbox fault rule"), journal);
                assertTrue(journal.contains("invalid_grant"), journal);
                assertTrue(journal.indexOf("invalid_grant") < journal.indexOf("temporarily_unavailable"), "newest first: " + journal);
                assertFalse(browser.getPageSource().contains(tokens.refreshToken()) || browser.getPageSource().contains(owned.clientSecret()));
                browser.findElement(By.cssSelector("#requests-app option[value='" + owned.application().clientId() + "']")).click();
                browser.findElement(By.id("show-requests")).click();
                browser.findElement(By.xpath("//h1[text()='Requests']"));
                assertTrue(browser.getCurrentUrl().contains("client_id=" + owned.application().clientId()), browser.getCurrentUrl());
                ConsoleBrowserTest.page(browser, "requests");

                browser.findElement(By.linkText("Faults")).click();
                browser.findElement(By.id("clear-faults")).click();
                browser.findElement(By.xpath("//p[@role='status'][contains(., 'Every fault rule was removed')]"));
                assertTrue(s.faults().list().isEmpty());
            } finally {
                browser.quit();
            }
            // The pages are development mode's: outside it they do not exist.
            try (TestServer prod = TestServer.start(b -> b.set(Setting.DEV, "false").set(Setting.CONSOLE_ENABLED, "true")
                    .set(Setting.OPERATOR_KEY, "operator-key-for-the-sandbox-console-0123456789"));
                 BrowserSession session = new BrowserSession(prod.baseUrl())) {
                session.get("/console/sign-in");
                session.post("/console/sign-in", Map.of("csrf_token", session.csrfToken(), "as", "operator",
                        "operator_key", "operator-key-for-the-sandbox-console-0123456789"));
                assertEquals(404, session.get("/console/faults").status());
                assertEquals(404, session.get("/console/requests").status());
            }
        }
    }

    private static String text(ChromeDriver browser) {
        return browser.findElement(By.tagName("body")).getText();
    }
}
