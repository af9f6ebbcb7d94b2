package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Real HTTP over loopback with the JDK client, and JSON parsing of the answers. */
public final class TestHttp implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();
    private final String base;
    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    public TestHttp(String base) {
        this.base = base;
    }

    public record Response(int status, java.net.http.HttpHeaders headers, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + body, e);
            }
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : base + path)).timeout(Duration.ofSeconds(30));
    }

    public Response get(String path, String... headers) {
        return send(withHeaders(request(path).GET(), headers));
    }

    public Response postJson(String path, String json, String... headers) {
        return send(withHeaders(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), headers));
    }

    public Response putJson(String path, String json, String... headers) {
        return send(withHeaders(request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)), headers));
    }

    public Response postForm(String path, String form, String... headers) {
        return send(withHeaders(request(path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)), headers));
    }

    public Response delete(String path, String... headers) {
        return send(withHeaders(request(path).DELETE(), headers));
    }

    public Response send(HttpRequest.Builder builder) {
        try {
            HttpRequest request = builder.build();
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            // Every JSON answer a test receives must match openapi.json (docs/api.md).
            OpenApiContract.check(request.method(), request.uri().getRawPath(), r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(null), r.body());
            return new Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpRequest.Builder withHeaders(HttpRequest.Builder b, String... headers) {
        for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return b;
    }

    /** Drops the client's connections at once (a server stopping under an open one waits for it). */
    @Override
    public void close() {
        client.shutdownNow();
    }
}
