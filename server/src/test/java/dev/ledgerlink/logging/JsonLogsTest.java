package dev.ledgerlink.logging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.BrowserSession;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import dev.ledgerlink.testing.FrontEnd;

/** log.format=json: what a server writes to stderr while it is used over HTTP. */
@FrontEnd
class JsonLogsTest {

    @Test
    void jsonLogsAreOneObjectPerLineWithTheRequestIdAndNoSecret() throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Logger requests = (Logger) LoggerFactory.getLogger("dev.ledgerlink.web.WebServer");
        Level before = requests.getLevel();
        List<String> secrets = new ArrayList<>();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (TestServer server = TestServer.start(s -> s.set(Setting.LOG_FORMAT, "json"))) {
            requests.setLevel(Level.DEBUG);   // one line per request, as LEDGERLINK_LOG_LEVEL=DEBUG gives
            var f = Fixtures.create(server);
            String code = OAuthFlows.code(server, f);
            JsonNode tokens = OAuthFlows.exchange(server, f, code).json();
            JsonNode refreshed = OAuthFlows.refresh(server, f, tokens.get("refresh_token").asText()).json();
            new BrowserSession(server.baseUrl()).get(OAuthFlows.authorizeUrl(f, Map.of()));
            server.http.get("/healthz", "X-Request-Id", "req-json-1");
            OAuthFlows.apiStatus(server, refreshed.get("access_token").asText());
            secrets.addAll(List.of(f.clientSecret(), f.password(), code, tokens.get("access_token").asText(),
                    tokens.get("refresh_token").asText(), refreshed.get("access_token").asText(), refreshed.get("refresh_token").asText()));
        } finally {
            System.setErr(original);
            requests.setLevel(before);
            LogFormat.apply(Settings.defaults());
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        List<JsonNode> lines = new ArrayList<>();
        // Lines before the first JSON one were written before the server applied log.format (the
        // JVM is shared with other test classes); from then on every line must be one JSON object.
        out = out.substring(Math.max(0, out.indexOf("{\"@timestamp\"")));
        for (String line : out.split("\n")) {
            if (line.isBlank()) continue;
            JsonNode event;
            try {
                event = TestHttp.JSON.readTree(line);
            } catch (java.io.IOException e) {
                throw new AssertionError("not one JSON object: " + line, e);
            }
            assertTrue(event.isObject() && event.has("@timestamp") && event.has("level") && event.has("message"), line);
            lines.add(event);
        }
        assertTrue(lines.stream().anyMatch(e -> "req-json-1".equals(e.path("request_id").asText())
                && e.get("message").asText().contains("/healthz")), "a request's line names its request id:\n" + out);
        assertTrue(lines.stream().anyMatch(e -> e.get("message").asText().contains("/auth/oauth/token")), out);
        for (String secret : secrets) assertFalse(out.contains(secret), "a secret reached the log:\n" + out);
    }
}
