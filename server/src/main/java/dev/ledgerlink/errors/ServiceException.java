package dev.ledgerlink.errors;

import java.time.Duration;
import java.util.List;

/**
 * A request the service refuses, in terms of what went wrong rather than how it is rendered.
 * The web layer turns it into the documented error body; the CLI prints its message.
 * Messages are shown to clients: they never contain a secret.
 */
public final class ServiceException extends RuntimeException {

    /** The kinds of refusal of decisions.md, with their HTTP status and gRPC canonical code. */
    public enum Kind {
        BAD_REQUEST(400, 3, "invalid_request"),
        UNAUTHORIZED(401, 16, "invalid_token"),
        FORBIDDEN(403, 7, "forbidden"),
        NOT_FOUND(404, 5, "not_found"),
        METHOD_NOT_ALLOWED(405, 12, "method_not_allowed"),
        CONFLICT(409, 6, "conflict"),
        PAYLOAD_TOO_LARGE(413, 8, "request_too_large"),
        URI_TOO_LONG(414, 3, "uri_too_long"),
        INVALID_FIELD(422, 3, "invalid_field"),
        THROTTLED(429, 8, "too_many_requests"),
        HEADERS_TOO_LARGE(431, 8, "request_header_fields_too_large"),
        UNAVAILABLE(503, 14, "unavailable"),
        /** The request line names an HTTP version the server does not speak (the client's to change, though a 5xx). */
        HTTP_VERSION_NOT_SUPPORTED(505, 12, "http_version_not_supported");

        public final int status;
        public final int grpcCode;
        public final String error;

        Kind(int status, int grpcCode, String error) {
            this.status = status;
            this.grpcCode = grpcCode;
            this.error = error;
        }
    }

    /** One field at fault: {@code callback.uri}, "must use https". */
    public record FieldViolation(String field, String description) {}

    public static final String NOT_FOUND_MESSAGE = "Requested resource could not be found.";

    private final Kind kind;
    private final String error;
    private final List<FieldViolation> violations;
    private final Duration retryAfter;

    private ServiceException(Kind kind, String error, String message, List<FieldViolation> violations, Duration retryAfter) {
        super(message, null, false, false);
        this.kind = kind;
        this.error = error;
        this.violations = List.copyOf(violations);
        this.retryAfter = retryAfter;
    }

    public static ServiceException badRequest(String message) {
        return new ServiceException(Kind.BAD_REQUEST, Kind.BAD_REQUEST.error, message, List.of(), null);
    }

    public static ServiceException badRequest(String field, String description) {
        return new ServiceException(Kind.BAD_REQUEST, Kind.BAD_REQUEST.error, field + " " + description,
                List.of(new FieldViolation(field, description)), null);
    }

    public static ServiceException unauthorized(String message) {
        return new ServiceException(Kind.UNAUTHORIZED, Kind.UNAUTHORIZED.error, message, List.of(), null);
    }

    public static ServiceException forbidden(String message) {
        return new ServiceException(Kind.FORBIDDEN, Kind.FORBIDDEN.error, message, List.of(), null);
    }

    public static ServiceException insufficientScope(String scope) {
        return new ServiceException(Kind.FORBIDDEN, "insufficient_scope",
                "The access token lacks the scope " + scope + ".", List.of(), null);
    }

    public static ServiceException notFound() {
        return new ServiceException(Kind.NOT_FOUND, Kind.NOT_FOUND.error, NOT_FOUND_MESSAGE, List.of(), null);
    }

    public static ServiceException notFound(String message) {
        return new ServiceException(Kind.NOT_FOUND, Kind.NOT_FOUND.error, message, List.of(), null);
    }

    public static ServiceException invalid(String field, String description) {
        return invalid(List.of(new FieldViolation(field, description)));
    }

    public static ServiceException invalid(List<FieldViolation> violations) {
        StringBuilder message = new StringBuilder();
        for (FieldViolation v : violations) {
            if (!message.isEmpty()) message.append("; ");
            message.append(v.field()).append(' ').append(v.description());
        }
        return new ServiceException(Kind.INVALID_FIELD, Kind.INVALID_FIELD.error, message.toString(), violations, null);
    }

    public static ServiceException throttled(String message, Duration retryAfter) {
        return new ServiceException(Kind.THROTTLED, Kind.THROTTLED.error, message, List.of(), retryAfter);
    }

    /** The service cannot answer now (its database unreachable); the client should retry after the wait. */
    public static ServiceException unavailable(String message, Duration retryAfter) {
        return new ServiceException(Kind.UNAVAILABLE, Kind.UNAVAILABLE.error, message, List.of(), retryAfter);
    }

    public static ServiceException of(Kind kind, String message) {
        return new ServiceException(kind, kind.error, message, List.of(), null);
    }

    public Kind kind() { return kind; }
    public String error() { return error; }
    public List<FieldViolation> violations() { return violations; }
    /** For THROTTLED and UNAVAILABLE: how long the client should wait; null otherwise. */
    public Duration retryAfter() { return retryAfter; }
}
