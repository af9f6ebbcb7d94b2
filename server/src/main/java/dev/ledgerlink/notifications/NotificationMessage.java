package dev.ledgerlink.notifications;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ledgerlink.signature.StandardWebhooks;
import java.time.Instant;
import java.util.Map;

/**
 * One operator notification as sent: a JSON body in the Standard Webhooks payload shape
 * ({@code {"type", "timestamp", "data"}}) and its three signature headers. The webhook-id is the
 * same on every retry of one notice, so receivers can de-duplicate. Pure.
 */
record NotificationMessage(String id, long timestampSeconds, String body, String signature) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static NotificationMessage of(long noticeId, String type, String data, int occurrences, Instant created, Instant sendingAt, byte[] key) {
        ObjectNode body = JSON.createObjectNode();
        body.put("type", type);
        body.put("timestamp", created.toString());
        try {
            ObjectNode d = (ObjectNode) JSON.readTree(data);
            if (OperatorNotices.DELIVERIES_DROPPED.equals(type)) d.put("dropped", occurrences);
            body.set("data", d);
            String id = "ntf_" + noticeId;
            String text = JSON.writeValueAsString(body);
            long ts = sendingAt.getEpochSecond();
            return new NotificationMessage(id, ts, text, StandardWebhooks.sign(key, id, ts, text));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("notice " + noticeId + " holds data that is not JSON", e);
        }
    }

    Map<String, String> headers() {
        return Map.of(StandardWebhooks.ID, id, StandardWebhooks.TIMESTAMP, Long.toString(timestampSeconds), StandardWebhooks.SIGNATURE, signature);
    }
}
