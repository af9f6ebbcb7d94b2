package dev.ledgerlink.json;

import dev.ledgerlink.errors.ServiceException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one error body of the API (decisions.md, "API conventions"), readable by both common client
 * styles at once: errno/code/message for one, error/error_description for the other, and
 * google.rpc.BadRequest details naming each field at fault.
 */
public final class ErrorBodies {
    private ErrorBodies() {}

    public static Map<String, Object> of(ServiceException e) {
        return body(e.kind().status, e.kind().grpcCode, e.error(), e.getMessage(), e.violations());
    }

    public static Map<String, Object> body(int status, int grpcCode, String error, String message,
                                           List<ServiceException.FieldViolation> violations) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("errno", status);
        body.put("code", grpcCode);
        body.put("message", message);
        body.put("error", error);
        body.put("error_description", message);
        if (violations.isEmpty()) {
            body.put("details", List.of());
        } else {
            List<Map<String, String>> fields = violations.stream()
                    .map(v -> Map.of("field", v.field(), "description", v.description())).toList();
            body.put("details", List.of(Map.of(
                    "@type", "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations", fields)));
        }
        return body;
    }

    /** For failures of our own: no detail of the cause reaches the client, only the request id to quote. */
    public static Map<String, Object> internal(String requestId) {
        return body(500, 13, "server_error",
                "The service failed to handle this request; quote request id " + requestId + " when reporting it.", List.of());
    }
}
