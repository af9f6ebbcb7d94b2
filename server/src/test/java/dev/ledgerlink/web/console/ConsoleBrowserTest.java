package dev.ledgerlink.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.TokenPair;
import dev.ledgerlink.oauth.TokenPrincipal;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.testing.Accessibility;
import dev.ledgerlink.testing.Chromium;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The developer console in a real headless Chromium over a real server, receiver and database: a
 * user signs in and sees their application, grant and callback; sends a test event and watches its
 * delivery arrive in the live tail (server-sent events); opens the delivery with the request as sent
 * and the response; redelivers; resends the code; revokes the grant; creates an application; then an
 * operator signs in with the operator key and sees every account. Each page passes the accessibility
 * check and leaves a screenshot in target/console-screenshots.
 */
@FrontEnd
@Heavy
class ConsoleBrowserTest {
    static final String OPERATOR_KEY = "operator-key-for-the-console-test-0123456789";
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    @TempDir
    Path profile;

    /**
     * Development mode's test-delivery options on the form: a tampered delivery sent three times
     * reaches the receiver as three copies with one message id and a wrong signature, and its
     * deliveries page marks it as a test. The form with its options passes the accessibility check.
     */
    @Test
    void theTestEventFormSendsTestDeliveries() throws Exception {
        try (TestServer server = TestServer.start(s -> s.set(Setting.OPERATOR_KEY, OPERATOR_KEY));
             Receiver receiver = new Receiver()) {
            Fixtures f = Fixtures.create(server);
            Fixtures.Verified cb = f.verified("invoice", receiver);
            receiver.clear();
            ChromeDriver browser = Chromium.start(profile, 1280, 1000);
            try {
                browser.get(server.baseUrl() + "/console/sign-in");
                browser.findElement(By.id("email")).sendKeys(f.user().email());
                browser.findElement(By.id("password")).sendKeys(f.password());
                browser.findElement(By.id("sign-in")).click();
                browser.findElement(By.xpath("//h1[text()='Applications']"));
                browser.findElement(By.linkText("Send a test event")).click();
                browser.findElement(By.cssSelector("#event-name option[value='invoice.create']")).click();
                browser.findElement(By.id("event-object")).clear();
                browser.findElement(By.id("event-object")).sendKeys("5151");
                browser.findElement(By.cssSelector("#delivery-signature option[value='tampered']")).click();
                browser.findElement(By.id("delivery-copies")).clear();
                browser.findElement(By.id("delivery-copies")).sendKeys("3");
                page(browser, "test-event-options");
                browser.findElement(By.id("send-event")).click();
                browser.findElement(By.xpath("//h1[text()='Delivery activity']"));

                List<Receiver.Request> got = receiver.await(3, r -> "5151".equals(FormParams.parse(r.body()).get("object_id")));
                assertEquals(1, got.stream().map(r -> r.header("webhook-id")).distinct().count(), "three copies, one message id");
                for (Receiver.Request r : got) {
                    assertFalse(dev.ledgerlink.signature.ServiceSignature.verify(cb.code(), r.body(), r.signature()), "tampered");
                }
                browser.get(server.baseUrl() + "/console/callbacks/" + cb.id() + "/deliveries");
                browser.findElement(By.cssSelector(".test-delivery"));
                assertTrue(text(browser).contains("test · tampered · ×3"), text(browser));
                page(browser, "deliveries-test");

                // a bad option is shown again with its problem, in the form
                browser.get(server.baseUrl() + "/console/test-event");
                browser.findElement(By.id("delivery-delay")).clear();
                browser.findElement(By.id("delivery-delay")).sendKeys("soon");
                browser.findElement(By.id("send-event")).click();
                assertTrue(browser.findElement(By.cssSelector("p.alert[role='alert']")).getText().contains("delay"), text(browser));
            } finally {
                browser.quit();
            }
        }
    }

    @Test
    void aUserSeesTheirApplicationsGrantsCallbacksAndDeliveriesAndAnOperatorSeesEverything() throws Exception {
        try (TestServer server = TestServer.start(s -> s.set(Setting.OPERATOR_KEY, OPERATOR_KEY));
             Receiver receiver = new Receiver()) {
            var s = server.services();
            Fixtures f = Fixtures.create(server);
            ApplicationService.Created owned = s.applications().create("Books Sync", List.of("https://sync.example.com/oauth/callback"),
                    List.of("user:profile:read", "user:invoices:read"), f.account().accountId());
            TokenPair tokens = s.tokens().issue(f.user().id(), owned.application().id(), owned.application().scopes());
            TokenPrincipal principal = s.tokens().verify(tokens.accessToken()).orElseThrow();
            Callback callback = s.callbacks().register(principal, f.account().accountId(), "invoice", receiver.uri());
            String code = FormParams.parse(receiver.await(1).getFirst().body()).get("verifier");
            s.callbacks().verify(principal, f.account().accountId(), callback.id(), code);
            Account other = s.accounts().create("Someone Else's Books", "UTC");

            ChromeDriver browser = Chromium.start(profile, 1280, 1000);
            try {
                // Not signed in: the console sends the browser to its sign-in page.
                browser.get(server.baseUrl() + "/console");
                browser.findElement(By.id("email"));
                assertTrue(browser.getCurrentUrl().endsWith("/console/sign-in"), browser.getCurrentUrl());
                page(browser, "sign-in");
                browser.findElement(By.id("email")).sendKeys(f.user().email());
                browser.findElement(By.id("password")).sendKeys(f.password());
                browser.findElement(By.id("sign-in")).click();

                // Applications of the user's account: client id, redirect URIs, scopes.
                browser.findElement(By.xpath("//h1[text()='Applications']"));
                String apps = text(browser);
                assertTrue(apps.contains("Books Sync") && apps.contains(owned.application().clientId()), apps);
                assertTrue(apps.contains("https://sync.example.com/oauth/callback") && apps.contains("user:invoices:read"), apps);
                assertFalse(apps.contains(f.app().clientId()), "an application of no account is not the user's: " + apps);
                page(browser, "applications");

                // Grants: counts and times, never a token.
                browser.findElement(By.linkText("Grants")).click();
                browser.findElement(By.xpath("//h1[text()='Grants']"));
                String grants = text(browser);
                assertTrue(grants.contains(f.user().email()) && grants.contains("Books Sync") && grants.contains("live"), grants);
                assertTrue(grants.contains("1 live of 1 issued"), grants);
                assertFalse(browser.getPageSource().contains(tokens.accessToken()) || browser.getPageSource().contains(tokens.refreshToken()));
                page(browser, "grants");

                // Callbacks: verified, last attempt (the verification request, answered 200).
                browser.findElement(By.linkText("Callbacks")).click();
                browser.findElement(By.xpath("//h1[text()='Callbacks']"));
                String callbacks = text(browser);
                assertTrue(callbacks.contains("#" + callback.id()) && callbacks.contains(receiver.uri()) && callbacks.contains("verified"), callbacks);
                assertTrue(callbacks.contains("HTTP 200"), callbacks);
                page(browser, "callbacks");

                // Send a test event: published like a real one; the browser lands on the live tail.
                browser.findElement(By.linkText("Send a test event")).click();
                browser.findElement(By.cssSelector("#event-account option[value='" + f.account().accountId() + "']")).click();
                browser.findElement(By.cssSelector("#event-name option[value='invoice.create']")).click();
                browser.findElement(By.id("event-object")).clear();
                browser.findElement(By.id("event-object")).sendKeys("4242");
                page(browser, "test-event");
                browser.findElement(By.id("send-event")).click();
                browser.findElement(By.xpath("//h1[text()='Delivery activity']"));
                assertTrue(text(browser).contains("was published"), text(browser));
                receiver.await(1, r -> "4242".equals(FormParams.parse(r.body()).get("object_id")));
                browser.findElement(By.xpath("//table[@id='tail']//tr[td[2]/code[text()='invoice.create']]//span[text()='HTTP 200']"));

                // The live tail: an event published while the page is open arrives through the stream.
                browser.findElement(By.xpath("//p[@id='tail-status'][contains(., 'Live')]"));
                s.events().publish(new EventPublisher.Request("invoice.update", f.account().accountId(), 777L, f.user().id(), null));
                WebElement streamed = browser.findElement(By.xpath("//table[@id='tail']//tr[contains(@class, 'fresh')][td[2]/code[text()='invoice.update']]"));
                assertTrue(streamed.getText().contains("HTTP 200"), streamed.getText());
                browser.findElement(By.cssSelector("svg.chart rect.bar.delivered"));
                page(browser, "activity");

                // Deliveries of the callback: the request as sent, the response, redeliver.
                browser.get(server.baseUrl() + "/console/callbacks/" + callback.id() + "/deliveries");
                browser.findElement(By.xpath("//h1[contains(., 'Deliveries of callback')]"));
                for (WebElement summary : browser.findElements(By.cssSelector("details.attempt summary"))) summary.click();
                String deliveries = text(browser);
                assertTrue(deliveries.contains("X-Service-Hmac-SHA256: ") && deliveries.contains("webhook-signature: v1,"), deliveries);
                assertTrue(deliveries.contains("name=invoice.create&object_id=4242&account_id=" + f.account().accountId()), deliveries);
                assertTrue(deliveries.contains("verifier=%5Bredacted%5D"), deliveries);
                assertFalse(browser.getPageSource().contains(code), "the verification code is never shown");
                assertTrue(deliveries.contains("HTTP 200") && deliveries.contains("ok 200"), deliveries);
                assertTrue(deliveries.toLowerCase().contains("content-length: 6"), deliveries);
                page(browser, "deliveries");
                long redelivered = s.deliveryReads().history(f.account().accountId(), callback.id(), 1, 50).deliveries().stream()
                        .filter(d -> "invoice.create".equals(d.name())).findFirst().orElseThrow().id();
                browser.findElement(By.cssSelector("form[action='/console/deliveries/" + redelivered + "/redeliver'] button")).click();
                browser.findElement(By.xpath("//p[@role='status'][contains(., 'Delivery " + redelivered + " is queued again')]"));
                receiver.await(2, r -> ("msg_" + redelivered).equals(r.header("X-Service-Event-Id")));

                // Resend the code: a fresh verification request, the callback unverified until it comes back.
                browser.findElement(By.linkText("Callbacks")).click();
                browser.findElement(By.cssSelector("form[action='/console/callbacks/" + callback.id() + "/resend'] button")).click();
                browser.findElement(By.xpath("//p[@role='status'][contains(., 'A fresh verification code')]"));
                receiver.await(2, r -> r.body().startsWith("name=callback.verify"));
                assertFalse(s.operatorCallbacks().show(callback.id()).verified());

                // Revoke the grant: every token of the user and application ends.
                browser.findElement(By.linkText("Grants")).click();
                browser.findElement(By.cssSelector("form[action='/console/grants/revoke'] button")).click();
                browser.findElement(By.xpath("//p[@role='status'][contains(., 'revoked')]"));
                assertTrue(s.tokens().verify(tokens.accessToken()).isEmpty());
                assertEquals(0, s.tokens().liveRefreshTokens(f.user().id(), owned.application().id()));

                // Create an application (development mode): its secret is shown once.
                browser.findElement(By.linkText("Applications")).click();
                browser.findElement(By.id("app-name")).sendKeys("Console Made");
                browser.findElement(By.id("app-redirects")).sendKeys("http://127.0.0.1:8000/callback");
                browser.findElement(By.cssSelector("input[name=scope][value='user:profile:read']")).click();
                browser.findElement(By.id("create-application")).click();
                String clientId = browser.findElement(By.id("new-client-id")).getText();
                String secret = browser.findElement(By.id("new-client-secret")).getText();
                var created = s.applications().authenticate(clientId, secret).orElseThrow();
                assertEquals(f.account().accountId(), created.ownerAccountId());
                page(browser, "applications-created");

                // Sign out; an operator with the operator key sees every account.
                browser.findElement(By.cssSelector("form[action='/console/sign-out'] button")).click();
                browser.findElement(By.id("operator-key")).sendKeys(OPERATOR_KEY);
                browser.findElement(By.id("sign-in-operator")).click();
                browser.findElement(By.xpath("//h1[text()='Applications']"));
                assertTrue(text(browser).contains(f.app().clientId()), "an operator sees applications of no account too");
                browser.findElement(By.linkText("Send a test event")).click();
                List<String> accounts = browser.findElements(By.cssSelector("#event-account option")).stream()
                        .map(o -> o.getDomAttribute("value")).toList();
                assertTrue(accounts.containsAll(List.of(f.account().accountId(), other.accountId())), accounts.toString());

                // A sandbox clock moved off real time: every page says which time its rules read.
                assertTrue(browser.findElements(By.cssSelector("p.sandbox-time")).isEmpty(), "no banner at real time");
                var sandboxClock = new dev.ledgerlink.sandbox.SandboxClock(s.clock());
                sandboxClock.advance(java.time.Duration.ofHours(3));   // under the 12 h a console session lives
                browser.findElement(By.linkText("Activity")).click();
                String banner = browser.findElement(By.cssSelector("p.sandbox-time")).getText();
                assertTrue(banner.contains("Sandbox time") && banner.contains("3 h ahead of real time"), banner);
                page(browser, "sandbox-time");
                sandboxClock.reset();
                browser.findElement(By.linkText("Applications")).click();
                browser.findElement(By.xpath("//h1[text()='Applications']"));
                assertTrue(browser.findElements(By.cssSelector("p.sandbox-time")).isEmpty(), "no banner once back at real time");
            } finally {
                browser.quit();
            }
        }
    }

    /** A screenshot of the whole page (kept as a build artifact), then the page's accessibility check. */
    static void page(ChromeDriver browser, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Map<String, Object> metrics = browser.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        Map<?, ?> size = (Map<?, ?>) metrics.get("cssContentSize");
        Map<String, Object> shot = browser.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", 0, "y", 0, "width", size.get("width"), "height", size.get("height"), "scale", 1)));
        Files.write(SCREENSHOTS.resolve(name + ".png"), Base64.getDecoder().decode((String) shot.get("data")));
        Accessibility.check(browser, name);
    }

    private static String text(ChromeDriver browser) {
        return browser.findElement(By.tagName("body")).getText();
    }
}
