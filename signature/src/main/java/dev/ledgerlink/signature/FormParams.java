package dev.ledgerlink.signature;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameters of one webhook request, in the order they are sent. The one place that knows the
 * order of a notification (name, object_id, account_id, user_id) and of a verification request
 * (name=callback.verify, object_id, verifier, account_id, user_id).
 */
public record FormParams(List<Param> params) {
    public static final String VERIFY_EVENT = "callback.verify";

    public record Param(String name, String value) {}

    public FormParams {
        params = List.copyOf(params);
    }

    public static FormParams notification(String name, long objectId, String accountId, long userId) {
        return new FormParams(List.of(
                new Param("name", name),
                new Param("object_id", Long.toString(objectId)),
                new Param("account_id", accountId),
                new Param("user_id", Long.toString(userId))));
    }

    public static FormParams verification(long callbackId, String verifier, String accountId, long userId) {
        return new FormParams(List.of(
                new Param("name", VERIFY_EVENT),
                new Param("object_id", Long.toString(callbackId)),
                new Param("verifier", verifier),
                new Param("account_id", accountId),
                new Param("user_id", Long.toString(userId))));
    }

    /** application/x-www-form-urlencoded body (UTF-8, space as +). */
    public String formEncoded() {
        StringBuilder out = new StringBuilder();
        for (Param p : params) {
            if (!out.isEmpty()) out.append('&');
            out.append(URLEncoder.encode(p.name(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(p.value(), StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** Parses a received form body, keeping the order (what a receiver signs). */
    public static FormParams parse(String body) {
        List<Param> out = new ArrayList<>();
        if (body == null || body.isEmpty()) return new FormParams(out);
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.add(new Param(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8)));
        }
        return new FormParams(out);
    }

    /** The signed message: the parameters as Python's json.dumps writes them. */
    public String signedJson() {
        return PythonJson.object(params);
    }

    public String get(String name) {
        for (Param p : params) if (p.name().equals(name)) return p.value();
        return null;
    }
}
