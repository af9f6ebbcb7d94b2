package dev.ledgerlink.bench.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One keep-alive HTTP/1.1 connection to a loopback server, used by one load worker at a time.
 * Why not the JDK HttpClient here: its shared selector thread and per-request futures spend CPU that
 * the server under test needs on a 2-core machine; a blocking socket on a virtual thread costs a
 * write and a read per request, so more of the machine measures the server.
 * It sends what it is given and reads one response (Content-Length or chunked); it follows nothing.
 */
public final class Http1Connection implements AutoCloseable {
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String text() { return new String(body, StandardCharsets.UTF_8); }
        public String header(String name) { return headers.get(name.toLowerCase(Locale.ROOT)); }
    }

    private final String host;
    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    public Http1Connection(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public Response get(String path, Map<String, String> headers) throws IOException {
        return send("GET", path, headers, null);
    }

    public Response post(String path, Map<String, String> headers, String contentType, String body) throws IOException {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("Content-Type", contentType);
        return send("POST", path, h, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends one request; reconnects once if the kept-alive connection was closed by the server. */
    public Response send(String method, String path, Map<String, String> headers, byte[] body) throws IOException {
        byte[] request = encode(method, path, headers, body);
        boolean fresh = socket == null;
        try {
            return exchange(request);
        } catch (IOException e) {
            close();
            if (fresh) throw e;
            return exchange(request);
        }
    }

    private Response exchange(byte[] request) throws IOException {
        if (socket == null) connect();
        out.write(request);
        out.flush();
        Response r = readResponse();
        String connection = r.header("connection");
        if (connection != null && connection.equalsIgnoreCase("close")) close();
        return r;
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), 5_000);
        s.setSoTimeout(30_000);
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
        out = s.getOutputStream();
    }

    private byte[] encode(String method, String path, Map<String, String> headers, byte[] body) {
        StringBuilder sb = new StringBuilder(256);
        sb.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port).append("\r\n");
        headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        if (body != null) sb.append("Content-Length: ").append(body.length).append("\r\n");
        sb.append("\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (body == null) return head;
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private Response readResponse() throws IOException {
        String statusLine = HttpLines.readLine(in);
        if (statusLine == null) throw new IOException("connection closed before a response");
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2) throw new IOException("bad status line: " + statusLine);
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = HttpLines.readHeaders(in);
        byte[] body = HttpLines.readBody(in, headers);
        return new Response(status, headers, body);
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a loopback socket: nothing to do about a failure
            }
        }
        socket = null;
        in = null;
        out = null;
    }

    static byte[] readAll(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length != n) throw new IOException("connection closed inside a body");
        return b;
    }
}
