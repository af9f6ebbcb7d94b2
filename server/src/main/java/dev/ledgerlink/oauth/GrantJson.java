package dev.ledgerlink.oauth;

import java.util.LinkedHashMap;
import java.util.Map;

/** A grant as the admin API and the CLI show it (never a token). */
public final class GrantJson {
    private GrantJson() {}

    public static Map<String, Object> of(Grants.Grant g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", g.id());
        m.put("user_id", g.userId());
        m.put("application_id", g.applicationId());
        m.put("scope", g.scopes());
        m.put("created_at", g.createdAt().toString());
        m.put("active", g.active());
        return m;
    }
}
