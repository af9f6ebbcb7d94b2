package dev.ledgerlink.client;

import java.util.List;
import java.util.Map;

/** An API refusal in the service's error body: status, error code, message and the fields at fault. */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String error;
    private final Map<String, String> fieldViolations;

    public ApiException(int status, String error, String message, Map<String, String> fieldViolations) {
        super(status + " " + error + ": " + message);
        this.status = status;
        this.error = error;
        this.fieldViolations = Map.copyOf(fieldViolations);
    }

    public int status() { return status; }
    /** not_found, invalid_field, insufficient_scope, invalid_token, too_many_requests, … */
    public String error() { return error; }
    /** Field name → what is wrong with it, e.g. callback.uri → "must use https". */
    public Map<String, String> fieldViolations() { return fieldViolations; }
    public List<String> fields() { return List.copyOf(fieldViolations.keySet()); }
}
