package dev.ledgerlink.signature;

import java.util.List;

/**
 * The JSON text Python's {@code json.dumps(dict)} writes with its defaults, for a flat object of
 * strings: separators {@code ", "} and {@code ": "}, {@code ensure_ascii=True}. This is the byte
 * string the X-Service-Hmac-SHA256 signature covers, so it must match Python character for character.
 */
public final class PythonJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PythonJson() {}

    /** {@code {"k1": "v1", "k2": "v2"}} in the given order. */
    public static String object(List<FormParams.Param> params) {
        StringBuilder out = new StringBuilder(16 + params.size() * 24);
        out.append('{');
        boolean first = true;
        for (FormParams.Param p : params) {
            if (!first) out.append(", ");
            first = false;
            string(out, p.name());
            out.append(": ");
            string(out, p.value());
        }
        return out.append('}').toString();
    }

    /** A JSON string as Python's encoder writes it: Java chars are UTF-16 units, so pairs come out as two escapes. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c >= ' ' && c <= '~') {
                        out.append(c);
                    } else {
                        out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
                    }
                }
            }
        }
        out.append('"');
    }
}
