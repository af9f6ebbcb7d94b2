package dev.ledgerlink.events;

import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shape of a stored event, shared by POST /internal/v1/events and `ledgerlink events publish`. */
public final class EventJson {
    private EventJson() {}

    public static Map<String, Object> of(Event e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("name", e.name());
        m.put("account_id", e.accountId());
        m.put("object_id", e.objectId());
        m.put("user_id", e.userId());
        m.put("created_at", e.createdAt().toString());
        m.put("deliveries", e.deliveries());
        return m;
    }
}
