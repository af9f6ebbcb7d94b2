package dev.ledgerlink.web;

import dev.ledgerlink.secrets.RandomTokens;
import io.javalin.http.Context;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/** A request id per request: taken from X-Request-Id when it is sane, else made; logged and echoed. */
public final class RequestIds {
    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = "ledgerlink.request-id";
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private RequestIds() {}

    static void assign(Context ctx) {
        String given = ctx.header(HEADER);
        String id = given != null && SANE.matcher(given).matches() ? given : RandomTokens.alphanumeric(16);
        ctx.attribute(ATTRIBUTE, id);
        ctx.header(HEADER, id);
        MDC.put("request_id", id);
    }

    public static String of(Context ctx) {
        String id = ctx.attribute(ATTRIBUTE);
        return id == null ? "-" : id;
    }
}
