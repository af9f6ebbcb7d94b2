package dev.ledgerlink.bench.delivery;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The X-Service-Hmac-SHA256 value of decisions.md: base64 HMAC-SHA256, key the verification code,
 * message the form parameters as a JSON object written the way Python's json.dumps writes a dict.
 * The bench needs it for the bare HttpClient loop (the same signed requests the engine sends) and to
 * check what the receiver got; it is written from the decision text, independently of the engine.
 */
public final class NotificationSignature {
    private NotificationSignature() {}

    public static String sign(String code, Map<String, String> orderedParams) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(code.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(pythonJson(orderedParams).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {"a": "b", "c": "d"} with json.dumps' default separators and ASCII escaping. */
    static String pythonJson(Map<String, String> params) {
        StringBuilder sb = new StringBuilder(128).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : params.entrySet()) {
            if (!first) sb.append(", ");
            first = false;
            quote(sb, e.getKey());
            sb.append(": ");
            quote(sb, e.getValue());
        }
        return sb.append('}').toString();
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c >= ' ' && c <= '~') sb.append(c);
                    else sb.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        sb.append('"');
    }

    /** The form body in the order given: name=...&object_id=...&... (URL-encoded). */
    public static String formBody(Map<String, String> orderedParams) {
        StringBuilder sb = new StringBuilder(128);
        for (Map.Entry<String, String> e : orderedParams.entrySet()) {
            if (!sb.isEmpty()) sb.append('&');
            sb.append(java.net.URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(java.net.URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    /** Form parameters of a urlencoded body, in order. */
    public static Map<String, String> parseForm(String body) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (body == null || body.isEmpty()) return out;
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(java.net.URLDecoder.decode(k, StandardCharsets.UTF_8), java.net.URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }
}
