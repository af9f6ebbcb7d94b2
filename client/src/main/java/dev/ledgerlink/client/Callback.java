package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;

/** A callback record. */
public record Callback(long id, String event, String uri, boolean verified, boolean disabled, String updatedAt) {
    static Callback from(JsonNode n) {
        return new Callback(n.path("callbackid").asLong(n.path("id").asLong()), n.path("event").asText(), n.path("uri").asText(),
                n.path("verified").asBoolean(), n.path("disabled").asBoolean(false), n.path("updated_at").asText(null));
    }
}
