package dev.ledgerlink.client.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sandbox's fault rules (docs/sandbox.md, "Faults"): the next matching requests of an application
 * get the rule's answer instead of the normal one, in the route's documented error shape.
 *
 * <pre>{@code
 * sandbox.faults().on("token").grantType("refresh_token").status(503, 1).times(2).add();
 * }</pre>
 */
public final class SandboxFaults {
    private final SandboxHttp http;

    SandboxFaults(SandboxHttp http) {
        this.http = http;
    }

    /** A rule for one route: authorize, token, revoke, introspect, identity or callbacks. */
    public Rule on(String route) {
        return new Rule(route);
    }

    /** Every rule, with what each has left ({@link FaultRule#remaining()}), oldest first. */
    public List<FaultRule> list() {
        List<FaultRule> out = new ArrayList<>();
        for (JsonNode n : http.get("/sandbox/v1/faults").path("faults")) out.add(rule(n));
        return out;
    }

    /** Removes every rule; returns how many there were. */
    public int clear() {
        return http.delete("/sandbox/v1/faults").path("cleared").asInt();
    }

    private static FaultRule rule(JsonNode n) {
        JsonNode e = n.path("effect");
        return new FaultRule(n.path("id").asLong(), n.path("route").asText(), SandboxHttp.text(n, "client_id"), SandboxHttp.text(n, "grant_type"),
                SandboxHttp.integer(e, "status"), SandboxHttp.integer(e, "retry_after"), SandboxHttp.text(e, "error"),
                SandboxHttp.integer(e, "latency_ms"), n.path("times").asInt(), n.path("remaining").asInt(), SandboxHttp.instant(n, "created_at"));
    }

    /** A rule being written: what it matches, its effect (exactly one), how many requests it takes. */
    public final class Rule {
        private final Map<String, Object> rule = new LinkedHashMap<>();
        private final Map<String, Object> effect = new LinkedHashMap<>();

        private Rule(String route) {
            rule.put("route", route);
        }

        /** Only requests of this application. */
        public Rule clientId(String clientId) {
            rule.put("client_id", clientId);
            return this;
        }

        /** Token route only: authorization_code or refresh_token. */
        public Rule grantType(String grantType) {
            rule.put("grant_type", grantType);
            return this;
        }

        /** Answer 503 or 429 with Retry-After (seconds). */
        public Rule status(int status, int retryAfterSeconds) {
            effect.put("status", status);
            effect.put("retry_after", retryAfterSeconds);
            return this;
        }

        /** Token route: refuse the grant with invalid_grant, using up neither the code nor the refresh token. */
        public Rule invalidGrant() {
            effect.put("error", "invalid_grant");
            return this;
        }

        /** Answer normally, this much later (at most a minute). */
        public Rule latency(Duration delay) {
            effect.put("latency_ms", delay.toMillis());
            return this;
        }

        /** How many matching requests the rule takes (default 1). */
        public Rule times(int times) {
            rule.put("times", times);
            return this;
        }

        /**
         * Stores the rule; the sandbox applies it from the next request on. An invalid rule is refused
         * with {@link dev.ledgerlink.client.ApiException} naming its fields.
         */
        public FaultRule add() {
            Map<String, Object> body = new LinkedHashMap<>(rule);
            body.put("effect", effect);
            return rule(http.post("/sandbox/v1/faults", body).path("fault"));
        }
    }
}
