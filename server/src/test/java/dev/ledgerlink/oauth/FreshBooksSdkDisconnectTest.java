package dev.ledgerlink.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.InstallLock;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The real FreshBooks Node SDK (@freshbooks/api, unchanged, installed from the npm registry into
 * target/freshbooks-sdk) holding a user's tokens: it calls the API and refreshes while the
 * application is connected, and once the user disconnects it on their account page's API, the
 * SDK's access token and refresh token are both refused (scripts/sdk-checks/connected-apps-node.js).
 */
@LedgerlinkTest
@FrontEnd
@Heavy
class FreshBooksSdkDisconnectTest {
    static final String SDK = "@freshbooks/api@4.1.0";
    private static final Path DIR = Path.of("target", "freshbooks-sdk").toAbsolutePath();
    private static final Path SCRIPT = Path.of("..", "scripts", "sdk-checks", "connected-apps-node.js");

    TestServer server;

    @Test
    void afterTheUserDisconnectsTheSdksTokensAreRefused(Fixtures f) throws Exception {
        JsonNode tokens = OAuthFlows.exchange(server, f, OAuthFlows.code(server, f)).json();
        JsonNode live = sdk(f, tokens.get("access_token").asText(), tokens.get("refresh_token").asText(), "live");
        String access = live.get("accessToken").asText();
        String refresh = live.get("refreshToken").asText();

        BrowserSession user = server.closeFirst(new BrowserSession(server.baseUrl()));
        user.get("/oauth/account");
        user.logIn(f.user().email(), f.password());
        String csrf = user.api("GET", "/oauth/account/api/connected-apps").json().get("csrf_token").asText();
        TestHttp.Response done = user.api("DELETE", "/oauth/account/api/connected-apps/" + f.app().clientId(), "X-CSRF-Token", csrf);
        assertEquals(200, done.status(), done.body());

        JsonNode refused = sdk(f, access, refresh, "disconnected");
        assertTrue(refused.get("refused").asBoolean());
    }

    private JsonNode sdk(Fixtures f, String access, String refresh, String expect) throws IOException, InterruptedException {
        Path script = install();
        List<String> command = new ArrayList<>(List.of("node", script.toString(), server.baseUrl(), f.app().clientId(), f.clientSecret(),
                Fixtures.REDIRECT_URI, access, refresh, expect));
        Process p = new ProcessBuilder(command).directory(DIR.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the SDK script did not finish");
        assertEquals(0, p.exitValue(), "the SDK " + expect + ": " + err + out);
        return TestHttp.JSON.readTree(out.strip().lines().reduce((a, b) -> b).orElse("{}"));
    }

    /** The SDK installed once per build (npm, the registry; one install at a time across test JVMs), the script copied beside it. */
    private static synchronized Path install() throws IOException {
        Path script = DIR.resolve("connected-apps-node.js");
        InstallLock.holding(DIR, () -> {
            Files.copy(SCRIPT, script, StandardCopyOption.REPLACE_EXISTING);
            if (Files.isDirectory(DIR.resolve("node_modules/@freshbooks/api"))) return;
            Files.writeString(DIR.resolve("package.json"), "{\"private\": true}\n");
            Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--silent", SDK).directory(DIR.toFile())
                    .redirectErrorStream(true).start();
            String log = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                assertTrue(npm.waitFor(5, TimeUnit.MINUTES) && npm.exitValue() == 0, "npm install " + SDK + " (scripts/ensure-node): " + log);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        });
        return script;
    }
}
