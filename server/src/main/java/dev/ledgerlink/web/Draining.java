package dev.ledgerlink.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.json.ErrorBodies;
import dev.ledgerlink.json.Json;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The web side of a stop (LedgerlinkServer.shutDown), from SIGTERM on: /readyz answers 503 at once, so
 * a load balancer takes the node out, while the API still answers what keeps arriving, each answer
 * with {@code Connection: close} so that no client keeps a connection the port is about to drop.
 * When the port then closes ({@link Handler}, Jetty's graceful stop), a request still arriving on a
 * connection already open is answered 503 in the documented shape with Retry-After, and the requests
 * in progress are finished before any connection is closed.
 */
public final class Draining {
    /** What a client refused during the stop is told to wait: another node takes it at once. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    /** The answer to a request that arrives once the port is closing. */
    static final ServiceException REFUSAL = ServiceException.unavailable(
            "This server is stopping; send the request again (another node answers it).", RETRY_AFTER);

    private volatile boolean begun;

    /** From now on: not ready, and every API answer closes its connection. */
    public void begin() {
        begun = true;
    }

    /** Whether the stop has begun. */
    public boolean begun() {
        return begun;
    }

    /** The handler the API server runs every request through (WebServer installs it around Javalin's). */
    Handler handler() {
        return new Handler(this);
    }

    /**
     * Jetty's graceful handler: while the server stops it waits for the requests in progress; a new one
     * gets the documented 503.
     */
    static final class Handler extends GracefulHandler {
        private static final byte[] REFUSAL_BODY = refusalBody();
        private final Draining draining;

        Handler(Draining draining) {
            this.draining = draining;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            if (isShutdown()) {   // checked here, not left to Jetty, whose refusal is a bare 503 through the error handler
                refuse(response, callback);
                return true;
            }
            if (draining.begun()) response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
            return super.handle(request, response, callback);
        }

        private static void refuse(Response response, Callback callback) {
            response.setStatus(503);
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(RETRY_AFTER.toSeconds()));
            response.getHeaders().put(RequestIds.HEADER, RequestIds.newId());
            response.write(true, ByteBuffer.wrap(REFUSAL_BODY), callback);
        }

        private static byte[] refusalBody() {
            try {
                return Json.MAPPER.writeValueAsBytes(ErrorBodies.of(Draining.REFUSAL));
            } catch (JsonProcessingException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
    }
}
