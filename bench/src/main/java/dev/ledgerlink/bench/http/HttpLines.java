package dev.ledgerlink.bench.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** The few pieces of HTTP/1.1 framing both the client and the receiver read: lines, headers, bodies. */
final class HttpLines {
    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_BODY = 1024 * 1024;

    private HttpLines() {}

    /** A CRLF-terminated line without its terminator; null at end of stream before any byte. */
    static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int len = sb.length();
                if (len > 0 && sb.charAt(len - 1) == '\r') sb.setLength(len - 1);
                return sb.toString();
            }
            if (sb.length() >= MAX_LINE) throw new IOException("line too long");
            sb.append((char) c);
        }
        return sb.isEmpty() ? null : sb.toString();
    }

    /** Header names in lower case. */
    static Map<String, String> readHeaders(InputStream in) throws IOException {
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            String line = readLine(in);
            if (line == null) throw new IOException("connection closed inside headers");
            if (line.isEmpty()) return headers;
            int colon = line.indexOf(':');
            if (colon > 0) {
                String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).trim();
                headers.merge(name, value, (a, b) -> name.equals("set-cookie") ? a + "\n" + b : a + ", " + b);
            }
        }
        throw new IOException("too many headers");
    }

    static byte[] readBody(InputStream in, Map<String, String> headers) throws IOException {
        String te = headers.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) return readChunked(in);
        String cl = headers.get("content-length");
        if (cl == null) return new byte[0];
        int n = Integer.parseInt(cl.trim());
        if (n < 0 || n > MAX_BODY) throw new IOException("body length " + n + " out of bounds");
        return Http1Connection.readAll(in, n);
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            if (sizeLine == null) throw new IOException("connection closed inside a chunked body");
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt((semi >= 0 ? sizeLine.substring(0, semi) : sizeLine).trim(), 16);
            if (size == 0) {
                String trailer;
                do {
                    trailer = readLine(in);
                } while (trailer != null && !trailer.isEmpty());
                return body.toByteArray();
            }
            if (body.size() + size > MAX_BODY) throw new IOException("chunked body too large");
            body.write(Http1Connection.readAll(in, size));
            readLine(in);
        }
    }

    static String decodeAscii(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
