package dev.ledgerlink.web.console;

import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The console's stylesheet and script, served by ledgerlink itself from the jar (no CDN). */
final class ConsoleAssets {
    private static final Map<String, String> TYPES = Map.of(
            "console.css", "text/css; charset=utf-8",
            "console.js", "text/javascript; charset=utf-8");
    private final Map<String, byte[]> files = new java.util.HashMap<>();

    ConsoleAssets() {
        for (String name : TYPES.keySet()) {
            try (InputStream in = ConsoleAssets.class.getResourceAsStream("/console/" + name)) {
                if (in == null) throw new IllegalStateException("missing resource /console/" + name);
                files.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    void serve(Context ctx) {
        String name = ctx.pathParam("name");
        byte[] body = files.get(name);
        if (body == null) throw new NotFoundResponse();
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.contentType(TYPES.get(name)).result(body);
    }
}
