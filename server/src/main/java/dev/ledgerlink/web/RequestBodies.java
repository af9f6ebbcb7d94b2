package dev.ledgerlink.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.json.Json;
import io.javalin.http.Context;

/** Strict parsing of JSON request bodies into a tree (the mapper's limits: no duplicate keys, depth 64). */
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
}
