package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * JSON over the JDK HttpClient, and the two error shapes of the service turned into exceptions.
 * A 429 or 503 with Retry-After is retried after that delay (the service took nothing from such a
 * request), up to {@code maxRetries} times and only when the delay is at most {@code maxRetryAfter}.
 * An answer that is not JSON (a proxy's HTML 502) keeps its status and a readable line of its text.
 */
final class Http {
    /** Trailing tokens fail: "502 Bad Gateway" must not read as the number 502. */
    static final ObjectMapper JSON = new ObjectMapper().enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final int MAX_TEXT = 200;

    private final HttpClient client;
    private final Duration timeout;
    private final int maxRetries;
    private final Duration maxRetryAfter;

    Http(HttpClient client, Duration timeout, int maxRetries, Duration maxRetryAfter) {
        this.client = client;
        this.timeout = timeout;
        this.maxRetries = maxRetries;
        this.maxRetryAfter = maxRetryAfter;
    }

    /** A response: its status, its JSON body (null when the body is not JSON), the text of a body that is not, and Retry-After. */
    record Reply(int status, JsonNode body, String text, Optional<Duration> retryAfter) {}

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
        HttpRequest request = b.build();
        for (int attempt = 0; ; attempt++) {
            Reply r = once(request, url);
            boolean retryable = (r.status() == 429 || r.status() == 503) && r.retryAfter().isPresent()
                    && r.retryAfter().get().compareTo(maxRetryAfter) <= 0;
            if (!retryable || attempt >= maxRetries) return r;
            sleep(r.retryAfter().get());
        }
    }

    private Reply once(HttpRequest request, String url) {
        try {
            HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            Optional<Duration> retryAfter = r.headers().firstValue("Retry-After").flatMap(Http::retryAfter);
            if (r.body().length == 0) return new Reply(r.statusCode(), JSON.createObjectNode(), "", retryAfter);
            try {
                JsonNode body = JSON.readTree(r.body());
                if (body.isContainerNode()) return new Reply(r.statusCode(), body, null, retryAfter);
            } catch (IOException notJson) {
                // read as text below
            }
            return new Reply(r.statusCode(), null, readable(new String(r.body(), StandardCharsets.UTF_8)), retryAfter);
        } catch (IOException e) {
            throw new UncheckedIOException("request to " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
    static Optional<Duration> retryAfter(String value) {
        String v = value.trim();
        if (v.matches("\\d{1,9}")) return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        try {
            Duration d = Duration.between(java.time.Instant.now(), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The text of an HTML or plain body in one short line: tags dropped, whitespace collapsed. */
    private static String readable(String body) {
        String title = body.replaceAll("(?is).*<title>(.*?)</title>.*", "$1");
        String text = (title.length() < body.length() ? title : body).replaceAll("(?s)<[^>]*>", " ").replaceAll("\\s+", " ").trim();
        return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "…" : text;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Retry-After", e);
        }
    }

    /** The API's error body → {@link ApiException}; a body that is not JSON keeps the status and its text. */
    static ApiException apiError(Reply r) {
        if (r.body() == null) {
            return new ApiException(r.status(), "http_" + r.status(), "the response is not JSON: " + r.text(), Map.of(), r.retryAfter());
        }
        return ApiException.of(r.status(), r.body(), r.retryAfter());
    }

    /** The token endpoint's RFC 6749 error body → {@link OAuthException}; a body that is not JSON keeps the status and its text. */
    static OAuthException oauthError(Reply r) {
        if (r.body() == null) return new OAuthException(r.status(), "http_" + r.status(), "the response is not JSON: " + r.text());
        return new OAuthException(r.status(), r.body().path("error").asText("http_" + r.status()),
                r.body().path("error_description").asText(null));
    }

    /** A success whose body is not JSON cannot be read: say so with its status and text. */
    static JsonNode json(Reply r) {
        if (r.body() == null) throw new ApiException(r.status(), "http_" + r.status(), "the response is not JSON: " + r.text(), Map.of(), Optional.empty());
        return r.body();
    }
}
