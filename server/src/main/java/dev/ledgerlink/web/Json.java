package dev.ledgerlink.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.ledgerlink.errors.ServiceException;
import io.javalin.http.Context;

/** The JSON mapper of the service, and strict parsing of request bodies into a tree. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    private Json() {}

    /** The body as a JSON object; a 400 naming the problem when it is empty, malformed or not an object. */
    public static JsonNode objectBody(Context ctx) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) throw ServiceException.badRequest("The request body must be a JSON object.");
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
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
