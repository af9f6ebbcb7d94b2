package dev.ledgerlink.junit;

import dev.ledgerlink.sandbox.FaultRule;
import dev.ledgerlink.sandbox.Faults;
import java.time.Duration;
import java.util.List;

/**
 * The sandbox's fault rules from a test ({@link LedgerlinkSandbox#faults()}), the same rules as
 * {@code POST /sandbox/v1/faults} and {@code ledgerlink sandbox faults}: the next matching requests get
 * the rule's answer instead of the normal one, in the route's documented error shape.
 *
 * <pre>{@code
 * sandbox.faults().on("token").grantType("refresh_token").status(503, 1).times(2).add();
 * }</pre>
 */
public final class SandboxFaults {
    private final Faults faults;

    SandboxFaults(Faults faults) {
        this.faults = faults;
    }

    /** A rule for one route: authorize, token, revoke, introspect, identity or callbacks. */
    public Rule on(String route) {
        return new Rule(route);
    }

    /** Every rule, with what each has left ({@link FaultRule#remaining()}). */
    public List<FaultRule> list() {
        return faults.list();
    }

    /** Removes every rule; returns how many there were. */
    public int clear() {
        return faults.clear();
    }

    /** A rule being written: what it matches, its effect (exactly one), how many requests it takes. */
    public final class Rule {
        private final String route;
        private String clientId;
        private String grantType;
        private Integer status;
        private Integer retryAfter;
        private String error;
        private Integer latencyMs;
        private Integer times;

        private Rule(String route) {
            this.route = route;
        }

        /** Only requests of this application. */
        public Rule clientId(String clientId) {
            this.clientId = clientId;
            return this;
        }

        /** Token route only: authorization_code or refresh_token. */
        public Rule grantType(String grantType) {
            this.grantType = grantType;
            return this;
        }

        /** Answer 503 or 429 with Retry-After (seconds). */
        public Rule status(int status, int retryAfterSeconds) {
            this.status = status;
            this.retryAfter = retryAfterSeconds;
            return this;
        }

        /** Token route: refuse the grant with invalid_grant, using up neither the code nor the refresh token. */
        public Rule invalidGrant() {
            this.error = "invalid_grant";
            return this;
        }

        /** Answer normally, this much later. */
        public Rule latency(Duration delay) {
            this.latencyMs = Math.toIntExact(delay.toMillis());
            return this;
        }

        /** How many matching requests the rule takes (default 1). */
        public Rule times(int times) {
            this.times = times;
            return this;
        }

        /** Stores the rule; the server applies it from the next request on. An invalid rule throws, naming its fields. */
        public FaultRule add() {
            return faults.add(new FaultRule.Draft(route, clientId, grantType, status, retryAfter, error, latencyMs, times));
        }
    }
}
