package dev.ledgerlink.web;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * GET /openapi.json: the OpenAPI 3.1 description of every route, kept in the repository
 * (server/src/main/resources/openapi.json) and served as it is. OpenApiDocumentTest keeps it equal
 * to the route table, and the test suite's responses are validated against it (docs/api.md).
 */
final class OpenApiDocument {
    private static final byte[] DOCUMENT = load();

    private OpenApiDocument() {}

    static void serve(Context ctx) {
        ctx.contentType("application/json").result(DOCUMENT);
    }

    private static byte[] load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("/openapi.json")) {
            if (in == null) throw new IllegalStateException("openapi.json is missing from the jar");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
