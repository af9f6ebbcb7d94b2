package dev.ledgerlink.callbacks;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A callback as JSON: the record of the interface, and the operator's view (admin API and CLI alike). */
public final class CallbackJson {
    private CallbackJson() {}

    /** The callback record of interface.md and decisions.md ("Callbacks"). */
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

    /** The public record plus what only operators see. */
    public static Map<String, Object> operatorView(Callback c) {
        Map<String, Object> m = record(c);
        m.put("account_id", c.accountId());
        m.put("application_id", c.applicationId());
        m.put("user_id", c.userId());
        m.put("state", c.state().name().toLowerCase(Locale.ROOT));
        m.put("failing_since", c.failingSince() == null ? null : c.failingSince().toString());
        // state "rekeying": awaiting verification of a resent code since then, its deliveries held (docs/delivery.md, "Re-keying")
        m.put("rekeying_since", c.rekeyingSince() == null ? null : c.rekeyingSince().toString());
        m.put("created_at", c.createdAt().toString());
        m.put("rate_limit", c.rateLimit());
        return m;
    }
}
