package dev.ledgerlink.web;

import dev.ledgerlink.errors.Causes;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;

/**
 * Failures caused by what the client sent rather than by the service, wherever they surface: an
 * unknown charset (Jetty throws it from getContentType), a truncated or malformed chunked body, a
 * request Jetty's parser refused. Each becomes the 4xx it is (or the 505 of an HTTP version the server
 * does not speak), never a 500 (decisions.md, "Durability and failure", last rule). Used by the exception mapper and by the Jetty error handler alike.
 */
final class ClientInputFailures {
    /** SQLSTATE 22021, character_not_in_repertoire: PostgreSQL's answer to a NUL in a text parameter. */
    private static final String NOT_IN_CHARSET = "22021";

    private ClientInputFailures() {}

    /** The refusal a failure stands for when the client caused it; empty for the service's own failures. */
    static Optional<ServiceException> of(Throwable failure) {
        return Causes.of(failure).map(ClientInputFailures::refusal).flatMap(Optional::stream).findFirst();
    }

    private static Optional<ServiceException> refusal(Throwable t) {
        if (t instanceof UnsupportedCharsetException || t instanceof IllegalCharsetNameException) {
            return Optional.of(ServiceException.badRequest("The request's charset is not supported; send UTF-8."));
        }
        if (t instanceof CharacterCodingException) {
            return Optional.of(ServiceException.badRequest("The request is not valid in its charset; send UTF-8."));
        }
        if (t instanceof HttpException http && isClients(http.getCode())) {
            return Optional.of(forStatus(http.getCode(), http.getReason()));
        }
        if (t instanceof java.sql.SQLException sql && NOT_IN_CHARSET.equals(sql.getSQLState())) {
            // PostgreSQL refuses text with a NUL character (H2 stores it); no identifier, token or field contains one
            return Optional.of(ServiceException.badRequest("The request contains a NUL character, which no field accepts."));
        }
        if (t instanceof EofException || t instanceof java.io.EOFException) {
            return Optional.of(ServiceException.badRequest("The request body ended early (truncated, or malformed chunked encoding)."));
        }
        return Optional.empty();
    }

    /** A status the HTTP layer gives for what the client sent: a 4xx, or 505 for an HTTP version it does not speak. */
    static boolean isClients(int status) {
        return status >= 400 && status < 500 || status == 505;
    }

    /** The documented refusal for a status the HTTP layer chose ({@link #isClients}), with a message that names the rule. */
    static ServiceException forStatus(int status, String reason) {
        return switch (status) {
            case 505 -> ServiceException.of(ServiceException.Kind.HTTP_VERSION_NOT_SUPPORTED,
                    "The request's HTTP version is not supported: this server speaks HTTP/1.1 (and HTTP/1.0).");
            case 404 -> ServiceException.notFound();
            case 405 -> ServiceException.of(ServiceException.Kind.METHOD_NOT_ALLOWED, "Method not allowed on this path.");
            case 413 -> ServiceException.of(ServiceException.Kind.PAYLOAD_TOO_LARGE,
                    "The request body is larger than " + WebServer.MAX_BODY_BYTES + " bytes.");
            case 414 -> ServiceException.of(ServiceException.Kind.URI_TOO_LONG, "The request URI is too long.");
            case 431 -> ServiceException.of(ServiceException.Kind.HEADERS_TOO_LARGE,
                    "The request's headers are too large (at most 8 KiB in all).");
            case 401 -> ServiceException.unauthorized("Authentication is required.");
            case 403 -> ServiceException.forbidden("Forbidden.");
            default -> ServiceException.badRequest(describe(reason));
        };
    }

    /** Jetty's reason ("Ambiguous URI path parameter", "Bad UTF-8 encoding") as a sentence; no input echoed. */
    private static String describe(String reason) {
        if (reason == null || reason.isBlank() || reason.equalsIgnoreCase("Bad Request")) return "The request is malformed.";
        return "The request is malformed: " + EchoedInput.printable(reason, 120) + ".";
    }
}
