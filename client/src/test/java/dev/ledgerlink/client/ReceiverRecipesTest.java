package dev.ledgerlink.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The receiver recipes of docs/sandbox.md, each against real notifications of a real server:
 * Java (this client's Notification.verify), Python (standard library, the FreshBooks documentation's
 * HMAC over json.dumps) and Node (the standardwebhooks package with the whsec_ secret). Each must
 * accept what the service signs and refuse a forgery.
 */
class ReceiverRecipesTest {
    static final Path RECIPES = Path.of("..", "docs", "receivers").toAbsolutePath().normalize();
    static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        if (!Files.exists(RECIPES.resolve("node_modules/standardwebhooks/package.json"))) {
            // a fresh clone: install the Node recipe's library (scripts/receivers-install, npm)
            Process p = new ProcessBuilder(RECIPES.resolve("../../scripts/receivers-install").normalize().toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0, "scripts/receivers-install failed: " + out);
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A user, an application, a token with the invoices scope and a client for them. */
    record App(Fixtures f, String token, CallbacksClient callbacks) {
        static App create() {
            Fixtures f = Fixtures.create(server);
            String token = server.services().tokens().issue(f.user().id(), f.app().id(), Set.of("user:invoices:read")).accessToken();
            LedgerlinkClient client = LedgerlinkClient.builder(server.baseUrl(), f.app().clientId(), f.clientSecret(), Fixtures.REDIRECT_URI).build();
            return new App(f, token, client.callbacks(token, f.account().accountId()));
        }

        void publish(String name, long objectId) {
            server.services().events().publish(new EventPublisher.Request(name, f.account().accountId(), objectId, f.user().id(), null));
        }
    }

    // ---- Java -------------------------------------------------------------------------------

    record Raw(String body, Map<String, List<String>> headers) {}

    @Test
    void javaNotificationVerifyAcceptsRealNotificationsAndRefusesForgeries() throws Exception {
        App app = App.create();
        BlockingQueue<Raw> got = new LinkedBlockingQueue<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        receiver.createContext("/", ex -> {
            got.add(new Raw(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), Map.copyOf(ex.getRequestHeaders())));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        receiver.start();
        try {
            Callback cb = app.callbacks().register("invoice.create", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks");
            Raw verification = got.poll(30, TimeUnit.SECONDS);
            assertNotNull(verification);
            String code = Notification.parse(verification.body()).verifier();
            assertEquals("callback.verify", Notification.verify(code, verification.body(), verification.headers()).name());
            app.callbacks().verify(cb.id(), code);

            app.publish("invoice.create", 77);
            Raw n = got.poll(30, TimeUnit.SECONDS);
            assertNotNull(n);
            Notification ok = Notification.verify(code, n.body(), n.headers());
            assertEquals(77, ok.objectId());

            assertThrows(Notification.InvalidSignatureException.class,
                    () -> Notification.verify(code, n.body().replace("object_id=77", "object_id=78"), n.headers()), "tampered body");
            assertThrows(Notification.InvalidSignatureException.class,
                    () -> Notification.verify("another-code", n.body(), n.headers()), "another callback's code");
            Clock tenMinutesLater = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10));
            assertThrows(Notification.InvalidSignatureException.class,
                    () -> Notification.verify(code, n.body(), name -> n.headers().entrySet().stream()
                            .filter(e -> e.getKey().equalsIgnoreCase(name)).map(e -> e.getValue().getFirst()).findFirst().orElse(null),
                            tenMinutesLater), "a replay ten minutes later");
        } finally {
            receiver.stop(0);
        }
    }

    // ---- Python and Node: the recipe files of docs/receivers, run as their own processes -------

    @Test
    void pythonRecipeVerifiesRealNotifications() throws Exception {
        runRecipe(List.of("python3", RECIPES.resolve("receiver.py").toString()));
    }

    @Test
    void nodeRecipeWithStandardWebhooksVerifiesRealNotifications() throws Exception {
        runRecipe(List.of("node", RECIPES.resolve("receiver.js").toString()));
    }

    private static void runRecipe(List<String> command) throws Exception {
        App app = App.create();
        ProcessBuilder pb = new ProcessBuilder(command).directory(RECIPES.toFile()).redirectErrorStream(true);
        pb.environment().put("PORT", "0");
        Process p = pb.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            String listening = next(lines, p);
            assertTrue(listening.startsWith("listening on http://127.0.0.1:"), listening);
            String uri = listening.substring("listening on ".length()) + "/webhooks/invoices";

            Callback cb = app.callbacks().register("invoice.create", uri);
            JsonNode verification = json(next(lines, p));
            assertEquals("callback.verify", verification.get("name").asText());
            assertTrue(verification.get("authentic").asBoolean(), verification.toString());
            assertTrue(app.callbacks().verify(cb.id(), verification.get("verifier").asText()).verified());

            app.publish("invoice.create", 4242);
            JsonNode n = json(next(lines, p));
            assertEquals("invoice.create", n.get("name").asText());
            assertEquals("4242", n.get("object_id").asText());
            assertTrue(n.get("authentic").asBoolean(), "the recipe accepts the service's signature: " + n);

            // A forgery: the same body with a made-up signature is refused (401) and reported as not authentic.
            HttpResponse<String> forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("X-Service-Hmac-SHA256", "bm90IGEgc2lnbmF0dXJl")
                    .header("webhook-id", "msg_forged").header("webhook-timestamp", Long.toString(System.currentTimeMillis() / 1000))
                    .header("webhook-signature", "v1,bm90IGEgc2lnbmF0dXJl")
                    .POST(HttpRequest.BodyPublishers.ofString("name=invoice.create&object_id=1&account_id=" + app.f().account().accountId()
                            + "&user_id=" + app.f().user().id())).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, forged.statusCode());
            assertTrue(!json(next(lines, p)).get("authentic").asBoolean());
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String next(BlockingQueue<String> lines, Process p) throws InterruptedException {
        String line = lines.poll(30, TimeUnit.SECONDS);
        if (line == null) throw new AssertionError("the recipe printed nothing within 30 s (alive: " + p.isAlive() + "); printed so far: " + lines);
        return line;
    }

    private static JsonNode json(String line) {
        try {
            return Http.JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not a JSON line: " + line, e);
        }
    }
}
