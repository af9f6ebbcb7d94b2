package dev.ledgerlink.web;

import io.javalin.http.Context;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/** A request id per request: taken from X-Request-Id when it is sane, else made; logged and echoed. */
public final class RequestIds {
    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = "ledgerlink.request-id";
    /** The log context's key for the request id of the thread's request. */
    private static final String MDC_KEY = "request_id";
    private static final String ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private RequestIds() {}

    static void assign(Context ctx) {
        String given = ctx.header(HEADER);
        String id = given != null && SANE.matcher(given).matches() ? given : newId();
        ctx.attribute(ATTRIBUTE, id);
        ctx.header(HEADER, id);
        MDC.put(MDC_KEY, id);
    }

    /** The request id of the request this thread serves, where no Context is at hand (a JVM error's handler); null outside one. */
    static String current() {
        return MDC.get(MDC_KEY);
    }

    /**
     * 16 letters and digits from a per-thread generator: request ids correlate log lines, they guard
     * nothing, so they do not draw on SecureRandom, whose cost showed in the token endpoint's profile.
     */
    static String newId() {
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        char[] out = new char[16];
        for (int i = 0; i < out.length; i++) out[i] = ID_CHARS.charAt(r.nextInt(ID_CHARS.length()));
        return new String(out);
    }

    public static String of(Context ctx) {
        String id = ctx.attribute(ATTRIBUTE);
        return id == null ? "-" : id;
    }
}
