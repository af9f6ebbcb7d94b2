package dev.ledgerlink.callbacks;

import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON record of a callback (interface.md), shared by the callbacks API and the operators' views. */
public final class CallbackJson {
    private CallbackJson() {}

    public static Map<String, Object> record(Callback c) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("callbackid", c.id());
        r.put("id", c.id());
        r.put("event", c.event());
        r.put("uri", c.uri());
        r.put("verified", c.verified());
        r.put("disabled", c.disabled());
        r.put("updated_at", UpdatedAt.format(c.updatedAt()));
        return r;
    }
}
