package dev.ledgerlink.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.client.LedgerlinkClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What the tests do to a running ledgerlink over HTTP. */
final class Servers {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** docs/sandbox-seed.yaml's application. */
    static final String SANDBOX_APP = "sandboxapp01", SANDBOX_SECRET = "sandbox-app-secret", SANDBOX_USER = "dev@example.com";

    private Servers() {}

    /** How long a container's server may take to start: a JVM in a container on a busy 2-core machine (a hang, not a timing check). */
    static final Duration START_LIMIT = Duration.ofMinutes(6);

    /** Waits (at most {@link #START_LIMIT}) for /readyz to answer 200. */
    static void awaitReady(String managementUrl) throws InterruptedException {
        long end = System.nanoTime() + START_LIMIT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < end) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(managementUrl + "/readyz")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return;
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError(managementUrl + "/readyz did not answer 200 within " + START_LIMIT.toMinutes() + " minutes: " + last);
    }

    static HttpResponse<String> get(String url, String bearer) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + bearer).header("Api-Version", "alpha").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Publishes an event as an internal service does; returns the response. */
    static HttpResponse<String> publish(String baseUrl, String operatorKey, String account, String name, long objectId)
            throws IOException, InterruptedException {
        String body = "{\"name\":\"" + name + "\",\"account_id\":\"" + account + "\",\"object_id\":" + objectId + ",\"user_id\":1}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/internal/v1/events")).header("Authorization", "Bearer " + operatorKey)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static LedgerlinkClient sandboxClient(String baseUrl) {
        return LedgerlinkClient.builder(baseUrl, SANDBOX_APP, SANDBOX_SECRET, "http://localhost:8000/callback").build();
    }

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new java.security.SecureRandom().nextBytes(b);
        return b;
    }

    /** {@code n} random bytes, URL-safe base64: passwords and keys of a test. */
    static String randomKey(int n) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(n));
    }

    static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }
}
