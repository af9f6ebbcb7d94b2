package dev.ledgerlink.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare TCP connection to a test server, for tests that must control each byte and the moment the
 * connection closes (slow clients, a port that is closing): no HTTP client would send half a request.
 */
public final class RawHttp {
    private RawHttp() {}

    /** A connection to 127.0.0.1:{@code port}; connecting and every read fail after {@code boundMs}. */
    public static Socket connect(int port, int boundMs) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), boundMs);
        s.setSoTimeout(boundMs);
        return s;
    }

    /** Writes {@code text} as it stands (request lines, headers, a part of a body) and flushes it. */
    public static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
