package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.RawHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The API port as a stop closes it (LedgerlinkServer.shutDown, web/Draining): a request in progress
 * is finished and answered; a request arriving then on a connection opened before is answered 503 in
 * the documented shape with Retry-After, never a connection closed without an answer.
 */
@FrontEnd
class StoppingPortTest {
    private static final int BOUND_MS = 30_000;
    private static final String OPERATOR_KEY = "stopping-port-test-operator-key";

    @Test
    void aRequestInProgressIsFinishedAndOneArrivingOnAnOpenConnectionGetsTheDocumented503() throws Exception {
        TestServer server = TestServer.start(s -> s.set(Setting.SHUTDOWN_DRAIN, "PT0S").set(Setting.SHUTDOWN_GRACE, "PT1S")
                .set(Setting.OPERATOR_KEY, OPERATOR_KEY));
        Thread stopper = null;
        try (Socket inProgress = connect(server); Socket keptOpen = connect(server)) {
            send(keptOpen, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
            String first = readResponse(keptOpen);
            assertTrue(first.startsWith("HTTP/1.1 200"), first);
            // A request whose handler is running, waiting for its body: in progress while the port closes.
            // Its handler reading the body is what sends "100 Continue", so the request is in progress once that came.
            String body = "{\"name\":\"invoice.create\",\"account_id\":\"nobody\",\"object_id\":1,\"user_id\":1}";
            send(inProgress, "POST /internal/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + OPERATOR_KEY
                    + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n");
            String go = readHead(inProgress);
            assertTrue(go.startsWith("HTTP/1.1 100"), go);

            stopper = Thread.ofPlatform().start(server.server::shutDown);
            awaitRefused(server.server.port());   // the port is closing: it takes no new connection
            send(keptOpen, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
            String late = readAll(keptOpen);
            assertTrue(late.startsWith("HTTP/1.1 503"), late);
            assertTrue(late.contains("Retry-After: 1\r\n") && late.contains("Connection: close\r\n"), late);
            assertTrue(late.contains("\"errno\":503") && late.contains("\"error\":\"unavailable\""), late);

            send(inProgress, body);
            String finished = readAll(inProgress);
            assertTrue(finished.matches("(?s)HTTP/1\\.1 4\\d\\d .*\"errno\":4\\d\\d.*"), "answered as usual (an account that does not exist): " + finished);
        } finally {
            if (stopper != null) stopper.join();
            server.close();
        }
    }

    private static void awaitRefused(int port) throws InterruptedException {
        for (int i = 0; i < 3000; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            } catch (ConnectException refused) {
                return;
            } catch (IOException other) {
                // try again
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the port did not close");
    }

    private static Socket connect(TestServer server) throws IOException {
        return RawHttp.connect(server.server.port(), BOUND_MS);
    }

    private static void send(Socket s, String text) throws IOException {
        RawHttp.send(s, text);
    }

    /** A response's head (status line and headers). */
    private static String readHead(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) break;
            head.append((char) c);
        }
        return head.toString();
    }

    /** One response of a kept-alive connection: its head, and its body by Content-Length. */
    private static String readResponse(Socket s) throws IOException {
        String head = readHead(s);
        var m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
        return head + new String(s.getInputStream().readNBytes(length), StandardCharsets.UTF_8);
    }

    private static String readAll(Socket s) throws IOException {
        try {
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + BOUND_MS + " ms", e);
        } catch (IOException reset) {
            return "(reset: " + reset + ")";
        }
    }
}
