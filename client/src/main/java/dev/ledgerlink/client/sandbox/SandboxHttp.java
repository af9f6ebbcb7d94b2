package dev.ledgerlink.client.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.client.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The sandbox's controls over HTTP, with the operator key as bearer: JSON in and out, and a refusal
 * (the service's error body) thrown as {@link ApiException}, naming the fields at fault.
 */
final class SandboxHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String baseUrl;
    private final String operatorKey;

    SandboxHttp(String baseUrl, String operatorKey) {
        this.baseUrl = baseUrl;
        this.operatorKey = operatorKey;
    }

    JsonNode get(String path) {
        return send("GET", path, null, Map.of());
    }

    JsonNode post(String path, Object body) {
        return send("POST", path, body, Map.of());
    }

    JsonNode delete(String path) {
        return send("DELETE", path, null, Map.of());
    }

    /** {@code body} is written as JSON (a Map or a JsonNode); null sends none. */
    JsonNode send(String method, String path, Object body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
                .header("Accept", "application/json").header("Authorization", "Bearer " + operatorKey);
        headers.forEach(b::header);
        try {
            if (body == null) {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            }
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode json = readJson(r.body());
            if (r.statusCode() / 100 == 2 && json != null) return json;
            if (json != null && json.isObject()) throw ApiException.of(r.statusCode(), json, Optional.empty());
            throw new ApiException(r.statusCode(), "http_" + r.statusCode(), method + " " + path + " answered "
                    + new String(r.body(), StandardCharsets.UTF_8).strip(), Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + baseUrl + path + " failed: is the sandbox running?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    private static JsonNode readJson(byte[] body) {
        if (body.length == 0) return JSON.createObjectNode();
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** A text field, null when absent or null. */
    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** An instant field (ISO-8601), null when absent or null. */
    static Instant instant(JsonNode n, String field) {
        String v = text(n, field);
        return v == null || v.equals("null") ? null : Instant.parse(v);
    }

    /** An integer field, null when absent or null. */
    static Integer integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asInt();
    }
}
