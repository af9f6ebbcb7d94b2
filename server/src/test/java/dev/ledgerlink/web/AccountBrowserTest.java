package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.oauth.Totp;
import dev.ledgerlink.testing.Accessibility;
import dev.ledgerlink.testing.Chromium;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The account page of the hosted sign-in in a real headless Chromium, every page checked with
 * axe-core and the keyboard (testing/Accessibility): a user who authorized an application signs in,
 * sees it in words, sets up an authenticator (its key read off the page, as a phone would scan it),
 * keeps the recovery codes, signs out and in again with a code, then disconnects the application,
 * whose tokens stop working at once; then authorizes it again through the authorization page
 * (password, code, the consent asked again) and its client gets tokens.
 */
@LedgerlinkTest
@FrontEnd
@Heavy
class AccountBrowserTest {
    @TempDir
    Path profile;

    TestServer server;

    @Test
    void aUserSeesAndDisconnectsTheirAppsAndSignsInWithASecondFactor() throws Exception {
        CompletableFuture<String> landed = new CompletableFuture<>();
        HttpServer client = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        client.createContext("/callback", exchange -> {
            landed.complete(exchange.getRequestURI().getRawQuery());
            byte[] body = "<!DOCTYPE html><title>Connected</title><h1 id=\"done\">Connected</h1>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        client.start();
        String redirectUri = "http://127.0.0.1:" + client.getAddress().getPort() + "/callback";
        Fixtures f = Fixtures.create(server, redirectUri);
        JsonNode tokens = exchange(f, redirectUri, OAuthFlows.code(server, f, Map.of("redirect_uri", redirectUri)));
        String access = tokens.get("access_token").asText();
        ChromeDriver browser = Chromium.start(profile, 1100, 900);
        try {
            browser.get(server.baseUrl() + "/oauth/account");
            Accessibility.check(browser, "account sign-in");
            signIn(browser, f);

            browser.findElement(By.xpath("//h1[text()='Your account']"));
            String page = browser.findElement(By.tagName("main")).getText();
            assertTrue(page.contains("Invoice Sync") && page.contains("See your invoices and recurring invoices"), page);
            assertTrue(page.contains("Connected since") && page.contains("Last used"), page);
            Accessibility.check(browser, "account");

            browser.findElement(By.id("set-up")).click();
            String secret = browser.findElement(By.id("secret")).getText().replace(" ", "");
            assertFalse(browser.findElements(By.cssSelector("svg.qr")).isEmpty(), "the QR code");
            Accessibility.check(browser, "second factor set-up");
            byte[] key = Totp.fromBase32(secret);
            long step = server.clock.instant().getEpochSecond() / Totp.STEP.toSeconds();
            browser.findElement(By.id("code")).sendKeys(Totp.codeAt(key, step));
            browser.findElement(By.id("confirm")).click();
            List<String> codes = browser.findElements(By.cssSelector("ul.codes code")).stream().map(e -> e.getText()).toList();
            assertEquals(10, codes.size(), codes.toString());
            Accessibility.check(browser, "recovery codes");
            browser.findElement(By.id("done")).click();
            assertTrue(browser.findElement(By.id("turn-off")).isDisplayed());   // the account page again, the second factor on
            assertTrue(browser.findElement(By.tagName("main")).getText().contains("10 recovery codes left"));

            browser.findElement(By.id("sign-out")).click();
            browser.findElement(By.id("sign-in"));
            signIn(browser, f);
            browser.findElement(By.xpath("//h1[text()='Two-step sign-in']"));
            Accessibility.check(browser, "second factor at sign-in");
            browser.findElement(By.id("code")).sendKeys(Totp.codeAt(key, step + 1));
            browser.findElement(By.id("verify")).click();
            browser.findElement(By.xpath("//h1[text()='Your account']"));

            assertEquals(200, OAuthFlows.apiStatus(server, access));
            browser.findElement(By.xpath("//button[@aria-label='Disconnect Invoice Sync']")).click();
            browser.findElement(By.cssSelector("p[role=status]"));   // the next page, with its notice
            String after = browser.findElement(By.tagName("main")).getText();
            assertTrue(after.contains("The application was disconnected") && after.contains("No application is connected"), after);
            Accessibility.check(browser, "account after a disconnect");
            assertEquals(401, OAuthFlows.apiStatus(server, access), "its tokens stopped working at once");

            // The authorization code flow with the second factor: password, code, consent again (it was forgotten), back with a code.
            browser.get(server.baseUrl() + OAuthFlows.authorizeUrl(f, Map.of("redirect_uri", redirectUri, "prompt", "login", "state", "s2")));
            signIn(browser, f);
            browser.findElement(By.xpath("//h1[text()='Two-step sign-in']"));
            Accessibility.check(browser, "second factor on the authorization page");
            server.clock.advance(Totp.STEP);   // the codes of step and step + 1 are spent: the next one, within the window
            browser.findElement(By.id("code")).sendKeys(Totp.codeAt(key, step + 2));
            browser.findElement(By.id("verify")).click();
            browser.findElement(By.id("authorize")).click();
            Map<String, String> params = BrowserSession.queryOf(redirectUri + "?" + landed.get(30, TimeUnit.SECONDS));
            assertEquals("s2", params.get("state"));
            assertEquals(200, OAuthFlows.apiStatus(server, exchange(f, redirectUri, params.get("code")).get("access_token").asText()));
        } finally {
            browser.quit();
            client.stop(0);
        }
    }

    private JsonNode exchange(Fixtures f, String redirectUri, String code) {
        var r = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code, "redirect_uri", redirectUri)));
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static void signIn(ChromeDriver browser, Fixtures f) {
        browser.findElement(By.id("email")).sendKeys(f.user().email());
        browser.findElement(By.id("password")).sendKeys(f.password());
        browser.findElement(By.id("sign-in")).click();
    }
}
