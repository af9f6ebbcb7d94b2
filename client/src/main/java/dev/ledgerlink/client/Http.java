package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON over the JDK HttpClient, and the two error shapes of the service turned into exceptions. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client;
    private final Duration timeout;

    Http(HttpClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    record Reply(int status, JsonNode body) {}

    Reply send(String method, String url, Object jsonBody, String bearer) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Accept", "application/json")
                .header("Api-Version", "alpha");
        if (bearer != null) b.header("Authorization", "Bearer " + bearer);
        if (jsonBody == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            try {
                b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(jsonBody)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = r.body().length == 0 ? JSON.createObjectNode() : JSON.readTree(r.body());
            return new Reply(r.statusCode(), body);
        } catch (IOException e) {
            throw new UncheckedIOException("request to " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The API's error body → {@link ApiException}. */
    static ApiException apiError(Reply r) {
        JsonNode b = r.body();
        Map<String, String> fields = new LinkedHashMap<>();
        for (JsonNode d : b.path("details")) {
            for (JsonNode v : d.path("fieldViolations")) fields.put(v.path("field").asText(), v.path("description").asText());
        }
        return new ApiException(r.status(), b.path("error").asText("http_" + r.status()),
                b.path("message").asText(b.path("error_description").asText("")), fields);
    }

    /** The token endpoint's RFC 6749 error body → {@link OAuthException}. */
    static OAuthException oauthError(Reply r) {
        return new OAuthException(r.status(), r.body().path("error").asText("http_" + r.status()),
                r.body().path("error_description").asText(null));
    }
}
