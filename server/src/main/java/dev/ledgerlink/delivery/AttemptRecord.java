package dev.ledgerlink.delivery;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How an attempt is written down for its history (delivery_attempts, read by the console): headers as
 * "Name: value" lines, every text capped to its column and free of NUL characters (PostgreSQL refuses
 * them in text, and one refused row would cost the whole batch a retry). Pure.
 */
final class AttemptRecord {
    static final int MAX_HEADERS = 4000;
    static final int MAX_REQUEST_BODY = 4000;
    static final int MAX_RESPONSE_BODY = DeliverySender.BODY_LIMIT;
    static final int MAX_ERROR = 500;
    /** What the history shows in place of the verification code: the code keys every signature. */
    static final String REDACTED = "[redacted]";

    private AttemptRecord() {}

    /** Header lines, sorted by name (case-insensitively), cut at {@link #MAX_HEADERS} characters. */
    static String headers(Map<String, List<String>> headers) {
        Map<String, List<String>> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        sorted.putAll(headers);
        StringBuilder out = new StringBuilder();
        sorted.forEach((name, values) -> {
            if (name == null || name.startsWith(":")) return;   // HTTP/2 pseudo-headers, never sent by HTTP/1.1
            for (String v : values) out.append(name).append(": ").append(v).append('\n');
        });
        return text(out.toString(), MAX_HEADERS);
    }

    /** The request's own headers in the order they were set. */
    static String requestHeaders(Map<String, String> headers) {
        StringBuilder out = new StringBuilder();
        headers.forEach((name, value) -> out.append(name).append(": ").append(value).append('\n'));
        return text(out.toString(), MAX_HEADERS);
    }

    static String text(String s, int max) {
        if (s == null) return null;
        String clean = s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
        return clean.length() <= max ? clean : clean.substring(0, max);
    }
}
