package dev.ledgerlink.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.json.Json;
import io.javalin.http.Context;

/**
 * Strict parsing of JSON request bodies into a tree (the mapper's limits: no duplicate keys, depth 64),
 * and the one reading of their text fields.
 */
public final class RequestBodies {
    private RequestBodies() {}

    /** The body as a JSON object; a 400 naming the problem when it is empty, malformed or not an object. */
    public static JsonNode objectBody(Context ctx) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) throw ServiceException.badRequest("The request body must be a JSON object.");
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw ServiceException.badRequest("The request body is not valid JSON" + where + ".");
        } catch (java.io.IOException e) {
            throw ServiceException.badRequest("The request body could not be read.");
        }
        if (node == null || !node.isObject()) throw ServiceException.badRequest("The request body must be a JSON object.");
        return node;
    }

    /** A string field of a JSON object; absent or null is null, anything but a string a 422 naming it. */
    public static String text(JsonNode object, String field) {
        return text(object, field, field, "must be a string");
    }

    /**
     * A string field of a JSON object; absent or null is null, anything but a string a 422 on
     * {@code reported} (the field's path in the body, {@code callback.uri}) saying {@code mustBe}.
     */
    public static String text(JsonNode object, String field, String reported, String mustBe) {
        JsonNode n = object.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isTextual()) throw ServiceException.invalid(reported, mustBe);
        return n.textValue();
    }

    /**
     * A field read as the platform's other services may send it: a string, or a number or boolean as
     * its text; absent or null is null, an object or array "" (the caller's validation then names the
     * field, as for any wrong value).
     */
    public static String scalarText(JsonNode object, String field) {
        JsonNode n = object.get(field);
        return n == null || n.isNull() ? null : n.isValueNode() ? n.asText() : "";
    }
}
