package dev.ledgerlink.sandbox;

import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON of fault rules and journal entries: one shape for the HTTP routes, the CLI's --json and the console. */
public final class SandboxJson {
    private SandboxJson() {}

    public static Map<String, Object> fault(FaultRule r) {
        Map<String, Object> effect = new LinkedHashMap<>();
        var e = r.effect();
        if (e.status() != null) {
            effect.put("status", e.status());
            effect.put("retry_after", e.retryAfter());
        }
        if (e.error() != null) effect.put("error", e.error());
        if (e.latencyMs() != null) effect.put("latency_ms", e.latencyMs());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("route", r.route().wireName());
        m.put("client_id", r.clientId());
        m.put("grant_type", r.grantType());
        m.put("effect", effect);
        m.put("times", r.times());
        m.put("remaining", r.remaining());
        m.put("created_at", r.createdAt().toString());
        return m;
    }

    public static Map<String, Object> request(JournalEntry j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", j.id());
        m.put("received_at", j.receivedAt().toString());
        m.put("client_id", j.clientId());
        m.put("method", j.method());
        m.put("path", j.path());
        m.put("status", j.status());
        m.put("error", j.error());
        m.put("error_description", j.errorDescription());
        m.put("duration_ms", j.durationMs());
        return m;
    }
}
