package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Chromium;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.TestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The whole authorization code flow in a real headless Chromium: sign in, consent, land on the
 * client's redirect URI (a loopback HTTP server) with code and state; then the client exchanges,
 * refreshes and revokes over real HTTP.
 */
@FrontEnd
@Heavy
class BrowserAuthorizationFlowTest {
    @TempDir
    Path profile;

    @Test
    void userSignsInConsentsAndTheClientGetsCodeTokensRefreshAndRevocation() throws Exception {
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

        WebDriver browser = null;
        try (TestServer server = TestServer.start()) {
            Fixtures f = Fixtures.create(server, redirectUri);
            browser = Chromium.start(profile);
            String state = "return-to=/settings&nonce=42";
            browser.get(server.baseUrl() + "/oauth/authorize/?" + BrowserSession.form(Map.of("client_id", f.app().clientId(),
                    "response_type", "code", "redirect_uri", redirectUri, "state", state)));

            browser.findElement(By.id("email")).sendKeys(f.user().email());
            browser.findElement(By.id("password")).sendKeys(f.password());
            browser.findElement(By.id("sign-in")).click();

            browser.findElement(By.id("authorize"));
            String consent = browser.findElement(By.tagName("main")).getText();
            assertTrue(consent.contains("Authorize Invoice Sync?"), consent);
            assertTrue(consent.contains("See your invoices and recurring invoices"), consent);
            browser.findElement(By.id("authorize")).click();

            String query = landed.get(30, TimeUnit.SECONDS);
            assertEquals("Connected", browser.findElement(By.id("done")).getText());
            Map<String, String> params = BrowserSession.queryOf(redirectUri + "?" + query);
            assertEquals(state, params.get("state"));
            String code = params.get("code");
            assertNotNull(code);

            var tokens = server.http.postForm("/auth/oauth/token", BrowserSession.form(Map.of("grant_type", "authorization_code",
                    "client_id", f.app().clientId(), "client_secret", f.clientSecret(), "code", code, "redirect_uri", redirectUri)));
            assertEquals(200, tokens.status(), tokens.body());
            JsonNode t = tokens.json();
            assertEquals(200, OAuthFlows.apiStatus(server, t.get("access_token").asText()));

            var refreshed = OAuthFlows.refresh(server, f, t.get("refresh_token").asText());
            assertEquals(200, refreshed.status(), refreshed.body());
            String access = refreshed.json().get("access_token").asText();
            String refresh = refreshed.json().get("refresh_token").asText();

            assertEquals(200, OAuthFlows.revoke(server, f, refresh).status());
            assertEquals(401, OAuthFlows.apiStatus(server, access));
            assertEquals(400, OAuthFlows.refresh(server, f, refresh).status());
        } finally {
            if (browser != null) browser.quit();
            client.stop(0);
        }
    }
}
