package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An API refusal in the service's error body: status, error code, message and the fields at fault. */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String error;
    private final Map<String, String> fieldViolations;
    private final Duration retryAfter;

    public ApiException(int status, String error, String message, Map<String, String> fieldViolations) {
        this(status, error, message, fieldViolations, Optional.empty());
    }

    public ApiException(int status, String error, String message, Map<String, String> fieldViolations, Optional<Duration> retryAfter) {
        super(status + " " + error + ": " + message);
        this.status = status;
        this.error = error;
        this.fieldViolations = Map.copyOf(fieldViolations);
        this.retryAfter = retryAfter.orElse(null);
    }

    /**
     * The service's error body ({@code {"errno", "error", "message", "details": [{"fieldViolations": [...]}]}})
     * of a response with this status, as an exception; an OAuth error body's {@code error_description} serves as its message.
     */
    public static ApiException of(int status, JsonNode body, Optional<Duration> retryAfter) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (JsonNode d : body.path("details")) {
            for (JsonNode v : d.path("fieldViolations")) fields.put(v.path("field").asText(), v.path("description").asText());
        }
        return new ApiException(status, body.path("error").asText("http_" + status),
                body.path("message").asText(body.path("error_description").asText("")), fields, retryAfter);
    }

    /** The Retry-After of a 429 or 503 the client did not retry (or retried without success). */
    public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }

    public int status() { return status; }
    /** not_found, invalid_field, insufficient_scope, invalid_token, too_many_requests, … */
    public String error() { return error; }
    /** Field name → what is wrong with it, e.g. callback.uri → "must use https". */
    public Map<String, String> fieldViolations() { return fieldViolations; }
    public List<String> fields() { return List.copyOf(fieldViolations.keySet()); }
}
