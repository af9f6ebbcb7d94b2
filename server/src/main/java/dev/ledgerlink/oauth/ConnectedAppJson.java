package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Scopes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A connected application as the account API, the admin API and the CLI show it (never a token). */
public final class ConnectedAppJson {
    private ConnectedAppJson() {}

    public static Map<String, Object> of(ConnectedApps.ConnectedApp c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client_id", c.application().clientId());
        m.put("application_id", c.application().id());
        m.put("name", c.application().name());
        m.put("scopes", scopes(c.scopes()));
        m.put("connected_at", c.connectedAt().toString());
        m.put("last_used_at", c.lastUsedAt() == null ? null : c.lastUsedAt().toString());
        return m;
    }

    public static Map<String, Object> disconnected(ConnectedApps.Disconnected d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client_id", d.application().clientId());
        m.put("application_id", d.application().id());
        m.put("name", d.application().name());
        m.put("tokens_revoked", d.tokensRevoked());
        return m;
    }

    private static List<Map<String, String>> scopes(List<String> scopes) {
        return scopes.stream().map(s -> Map.of("scope", s, "description", Scopes.describe(s))).toList();
    }
}
