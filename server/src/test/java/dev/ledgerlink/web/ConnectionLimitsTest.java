package dev.ledgerlink.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.LogLines;
import dev.ledgerlink.testing.Metrics;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.RawHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.FrontEnd;

/**
 * The limits that keep a connection flood from holding the API port (docs/operations.md, "Connection
 * floods"), each with a short setting so the test is quick: an idle connection is closed after
 * http.idle-timeout; headers trickled in (slowloris) are cut after http.header-timeout however often a
 * byte arrives, and a body after http.body-timeout; a request that sends its parts promptly is
 * answered; beyond http.max-connections the server takes no new connection until it has closed idle
 * ones. ConnectionFloodTest (bench module) runs thousands of such connections beside healthy clients.
 */
@LedgerlinkTest
@FrontEnd
class ConnectionLimitsTest {
    /** Well beyond every limit the tests set: a connection the server has not closed by then never will be. */
    private static final int BOUND_MS = 20_000;

    @Test
    @ServerSettings("http.idle-timeout=PT1S")
    void aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout(TestServer server) throws Exception {
        try (Socket silent = connect(server); Socket afterARequest = connect(server)) {
            send(afterARequest, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(readAll(afterARequest).startsWith("HTTP/1.1 200"), "answered, then closed when it idles");
            assertEquals("", readAll(silent));
        }
    }

    @Test
    @ServerSettings({"http.header-timeout=PT1S", "http.idle-timeout=PT30S"})
    void headersTrickledInAreCutAfterTheHeaderTimeoutButPromptOnesAreAnswered(TestServer server) throws Exception {
        try (Socket prompt = connect(server)) {
            send(prompt, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
            Thread.sleep(300);
            send(prompt, "Connection: close\r\n\r\n");
            assertTrue(readAll(prompt).startsWith("HTTP/1.1 200"), "a head sent in two parts within the limit is answered");
        }
        try (LogLines log = new LogLines(); Socket slowloris = connect(server)) {
            send(slowloris, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
            int lines = trickle(slowloris, i -> "X-Slow-" + i + ": a\r\n");
            assertTrue(lines >= 3, "the server took a few header lines before it cut the connection (" + lines + ")");
            assertEquals(1.0, closed(server, "headers"));
            assertEquals(List.of(), log.all(), "a slow client is no failure of the service");
        }
    }

    @Test
    @ServerSettings({"http.body-timeout=PT1S", "http.idle-timeout=PT30S"})
    void aBodyTrickledInIsCutAfterTheBodyTimeout(TestServer server) throws Exception {
        // The token endpoint reads its form body before anything else.
        String head = "POST /auth/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\n";
        try (Socket prompt = connect(server)) {
            send(prompt, head.replace("400", "28").replace("Host: x", "Host: x\r\nConnection: close") + "grant_type=");
            Thread.sleep(300);
            send(prompt, "refresh_token&a=b");
            assertTrue(readAll(prompt).startsWith("HTTP/1.1 4"), "a body sent in two parts within the limit gets its answer (a 4xx: no client)");
        }
        try (LogLines log = new LogLines(); Socket slow = connect(server)) {
            send(slow, head + "grant_type=");
            int bytes = trickle(slow, i -> "a");
            assertTrue(bytes >= 3, "the server read a few bytes of the body before it cut the connection (" + bytes + ")");
            assertEquals(1.0, closed(server, "body"));
            assertEquals(List.of(), log.all(), "a slow client is no failure of the service");
        }
    }

    @Test
    @ServerSettings({"http.max-connections=20", "http.idle-timeout=PT3S"})
    void beyondTheCapNewConnectionsWaitUntilIdleOnesAreClosed(TestServer server) throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) idle.add(connect(server));   // the kernel queues what the server does not take
            Eventually.await("the server at its cap", () -> open(server) == 20);
            int closed = 0;
            for (Socket s : idle) {
                assertTrue(open(server) <= 20, "open connections within http.max-connections");
                if (readAll(s).isEmpty()) closed++;
            }
            assertEquals(50, closed, "each idle connection was taken in turn and closed once idle at the cap");
            assertEquals(200, server.http.get("/healthz").status(), "served again once below the cap");
        } finally {
            for (Socket s : idle) s.close();
        }
    }

    private static Socket connect(TestServer server) throws IOException {
        return RawHttp.connect(server.server.port(), BOUND_MS);
    }

    private static void send(Socket s, String text) throws IOException {
        RawHttp.send(s, text);
    }

    /** Everything the server sends until it closes the connection (fails if it has not within the bound). */
    private static String readAll(Socket s) throws IOException {
        try (InputStream in = s.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + BOUND_MS + " ms", e);
        } catch (IOException reset) {
            return "";
        }
    }

    /** Sends a piece every 200 ms (well inside the idle timeout) until the server closes the connection; returns how many went. */
    private static int trickle(Socket s, java.util.function.IntFunction<String> piece) throws Exception {
        long deadline = System.nanoTime() + BOUND_MS * 1_000_000L;
        for (int i = 0; System.nanoTime() < deadline; i++) {
            try {
                send(s, piece.apply(i));
            } catch (IOException closed) {
                return i;
            }
            Thread.sleep(200);
            if (s.getInputStream().available() > 0 || closedByPeer(s)) return i + 1;
        }
        throw new AssertionError("the server kept taking the trickle for " + BOUND_MS + " ms");
    }

    /** True when the peer has closed: a read with a short timeout ends the stream. */
    private static boolean closedByPeer(Socket s) throws IOException {
        int timeout = s.getSoTimeout();
        s.setSoTimeout(1);
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        } finally {
            s.setSoTimeout(timeout);
        }
    }

    private static double closed(TestServer server, String phase) {
        return Metrics.value(server, "ledgerlink_http_slow_clients_closed_total", "phase", phase).orElse(-1);
    }

    private static double open(TestServer server) {
        return server.services().metrics().get("ledgerlink.http.connections").gauge().value();
    }
}
