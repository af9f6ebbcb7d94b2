package dev.ledgerlink.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.json.ErrorBodies;
import dev.ledgerlink.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Responses of the HTTP layer itself, for requests refused before any route sees them (malformed
 * percent-encoding, ambiguous paths, bad UTF-8, oversized headers, unparseable requests): the
 * documented JSON error body instead of Jetty's HTML page, built by {@link ErrorBodies} like every
 * other error. Installed on the server (parser-level refusals) and on the servlet context (URI checks).
 */
final class JettyErrors {
    private static final Logger LOG = LoggerFactory.getLogger(JettyErrors.class);

    private JettyErrors() {}

    /** For the server: what its parser refuses, and what falls outside the servlet context. */
    static final class ServerLevel extends org.eclipse.jetty.server.handler.ErrorHandler {
        /** Jetty writes a body only for GET, POST and HEAD by default; every method gets the documented one. */
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
            respond(response, code, message, cause, callback);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            Rendered r = render(status, reason, null);
            fields.put(HttpHeader.CONTENT_TYPE, "application/json");
            return ByteBuffer.wrap(r.body());
        }
    }

    /** For the servlet context Javalin runs in: what the context refuses before Javalin's own routing. */
    static final class ContextLevel extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback, String contentType,
                                                     List<Charset> charsets, int code, String message, Throwable cause) {
            respond(response, code, message, cause, callback);
            return true;
        }
    }

    private record Rendered(int status, byte[] body) {}

    private static void respond(Response response, int code, String message, Throwable cause, Callback callback) {
        Rendered r = render(code, message, cause);
        response.setStatus(r.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        if (r.status() == 503) response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(Draining.RETRY_AFTER.toSeconds()));
        response.getHeaders().put(RequestIds.HEADER, RequestIds.newId());
        response.write(true, ByteBuffer.wrap(r.body()), callback);
    }

    /**
     * A client's mistake becomes its 4xx, or 505 for an HTTP version the server does not speak (even
     * when Jetty called it a 500); the service's own failure stays a 500 without detail.
     */
    private static Rendered render(int code, String message, Throwable cause) {
        ServiceException refusal = ClientInputFailures.of(cause)
                .orElse(ClientInputFailures.isClients(code) ? ClientInputFailures.forStatus(code, message) : null);
        if (refusal == null && code == 503) refusal = Draining.REFUSAL;   // Jetty's own 503: a request that came as the server stopped
        Map<String, Object> body;
        int status;
        if (refusal != null) {
            status = refusal.kind().status;
            body = ErrorBodies.of(refusal);
        } else {
            status = code;
            LOG.warn("the HTTP layer failed a request with {} {}", code, message, cause);
            body = ErrorBodies.internal("-");
        }
        try {
            return new Rendered(status, Json.MAPPER.writeValueAsBytes(body));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
