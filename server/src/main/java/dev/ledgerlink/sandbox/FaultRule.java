package dev.ledgerlink.sandbox;

import dev.ledgerlink.errors.ServiceException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A fault rule: which requests it matches (a route, optionally one client_id and, on the token route,
 * one grant_type), what they get instead of the normal answer, and how many more it takes.
 * {@link #validate} is the one place a draft becomes a rule, whether it came over HTTP, from the CLI,
 * the console or the JUnit extension.
 */
public record FaultRule(long id, FaultRoute route, String clientId, String grantType, Effect effect, int times, int remaining,
                        Instant createdAt) {
    public static final int MAX_TIMES = 100_000;
    public static final int MAX_LATENCY_MS = 60_000;
    public static final int MAX_RETRY_AFTER = 3_600;
    /** What a 503 or 429 says in Retry-After when the rule does not say. */
    public static final int DEFAULT_RETRY_AFTER = 1;

    /** Exactly one kind of effect: a status (503 or 429, with Retry-After), a refused grant, or a delay. */
    public record Effect(Integer status, Integer retryAfter, String error, Integer latencyMs) {
        public static Effect status(int status, int retryAfter) { return new Effect(status, retryAfter, null, null); }
        public static Effect invalidGrant() { return new Effect(null, null, "invalid_grant", null); }
        public static Effect latency(int ms) { return new Effect(null, null, null, ms); }

        /** "503, Retry-After 2 s", "invalid_grant", "1500 ms latency": for lists and pages. */
        public String describe() {
            if (status != null) return status + ", Retry-After " + retryAfter + " s";
            if (error != null) return error;
            return latencyMs + " ms latency";
        }
    }

    /** A rule as asked for, every field possibly missing or wrong; {@code times} null means 1. */
    public record Draft(String route, String clientId, String grantType, Integer status, Integer retryAfter, String error,
                        Integer latencyMs, Integer times) {}

    /** A valid rule not yet stored (id 0), or 422 naming every field at fault. */
    public static FaultRule validate(Draft d, Instant now) {
        List<ServiceException.FieldViolation> bad = new ArrayList<>();
        FaultRoute route = null;
        if (d.route() == null || d.route().isBlank()) {
            bad.add(new ServiceException.FieldViolation("route", "is required: one of " + FaultRoute.names()));
        } else {
            route = FaultRoute.byName(d.route()).orElse(null);
            if (route == null) bad.add(new ServiceException.FieldViolation("route", "must be one of " + FaultRoute.names()));
        }
        String clientId = blankToNull(d.clientId());
        if (clientId != null && !clientId.matches("[A-Za-z0-9_-]{1,64}")) {
            bad.add(new ServiceException.FieldViolation("client_id", "must be a client_id (1-64 letters, digits, - or _)"));
        }
        String grantType = blankToNull(d.grantType());
        if (grantType != null) {
            if (!grantType.equals("authorization_code") && !grantType.equals("refresh_token")) {
                bad.add(new ServiceException.FieldViolation("grant_type", "must be authorization_code or refresh_token"));
            } else if (route != null && route != FaultRoute.TOKEN) {
                bad.add(new ServiceException.FieldViolation("grant_type", "applies to the token route only"));
            }
        }
        Effect effect = effect(d, route, bad);
        int times = d.times() == null ? 1 : d.times();
        if (times < 1 || times > MAX_TIMES) bad.add(new ServiceException.FieldViolation("times", "must be between 1 and " + MAX_TIMES));
        if (!bad.isEmpty()) throw ServiceException.invalid(bad);
        return new FaultRule(0, route, clientId, grantType, effect, times, times, now);
    }

    private static Effect effect(Draft d, FaultRoute route, List<ServiceException.FieldViolation> bad) {
        int kinds = (d.status() != null ? 1 : 0) + (blankToNull(d.error()) != null ? 1 : 0) + (d.latencyMs() != null ? 1 : 0);
        if (kinds != 1) {
            bad.add(new ServiceException.FieldViolation("effect",
                    "must be exactly one of {\"status\": 503 or 429, \"retry_after\": seconds}, {\"error\": \"invalid_grant\"}, {\"latency_ms\": N}"));
            return null;
        }
        if (d.retryAfter() != null && d.status() == null) {
            bad.add(new ServiceException.FieldViolation("effect.retry_after", "goes with a status (503 or 429)"));
        }
        if (d.status() != null) {
            if (d.status() != 503 && d.status() != 429) bad.add(new ServiceException.FieldViolation("effect.status", "must be 503 or 429"));
            int retryAfter = d.retryAfter() == null ? DEFAULT_RETRY_AFTER : d.retryAfter();
            if (retryAfter < 0 || retryAfter > MAX_RETRY_AFTER) {
                bad.add(new ServiceException.FieldViolation("effect.retry_after", "must be between 0 and " + MAX_RETRY_AFTER + " seconds"));
            }
            return Effect.status(d.status(), retryAfter);
        }
        if (d.latencyMs() != null) {
            if (d.latencyMs() < 1 || d.latencyMs() > MAX_LATENCY_MS) {
                bad.add(new ServiceException.FieldViolation("effect.latency_ms", "must be between 1 and " + MAX_LATENCY_MS));
            }
            return Effect.latency(d.latencyMs());
        }
        if (!d.error().equals("invalid_grant")) {
            bad.add(new ServiceException.FieldViolation("effect.error", "must be invalid_grant"));
        } else if (route != null && route != FaultRoute.TOKEN) {
            bad.add(new ServiceException.FieldViolation("effect.error", "invalid_grant applies to the token route only"));
        }
        return Effect.invalidGrant();
    }

    /** Whether this rule matches a request to {@code route} by {@code clientId} (null: unknown) with {@code grantType}. */
    public boolean matches(FaultRoute requestRoute, String requestClientId, String requestGrantType) {
        if (requestRoute != route) return false;
        if (clientId != null && !clientId.equals(requestClientId)) return false;
        return grantType == null || grantType.equals(requestGrantType);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
