package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The documented 503 of a service that cannot answer for now (its database unreachable, its disk
 * full): decisions.md, "Durability and failure". A Retry-After header and the error body, whatever the
 * route (the token endpoints' too).
 */
public final class Unavailable {
    private Unavailable() {}

    public static boolean isDocumented(TestHttp.Response r) {
        if (r.status() != 503 || r.headers().firstValue("Retry-After").isEmpty()) return false;
        JsonNode body = r.json();
        return body.path("errno").asInt() == 503 && "unavailable".equals(body.path("error").asText())
                && !body.path("message").asText().isEmpty() && body.hasNonNull("error_description");
    }
}
