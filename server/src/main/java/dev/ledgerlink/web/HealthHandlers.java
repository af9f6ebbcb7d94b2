package dev.ledgerlink.web;

import dev.ledgerlink.store.Database;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;

/** Liveness, readiness and the Prometheus scrape. */
final class HealthHandlers {
    private final Database database;
    private final PrometheusMeterRegistry metrics;

    HealthHandlers(Database database, PrometheusMeterRegistry metrics) {
        this.database = database;
        this.metrics = metrics;
    }

    /** /healthz, /readyz and /metrics: on the API port, or on the management port when it is on. */
    static void register(io.javalin.config.RoutesConfig r, dev.ledgerlink.Services s) {
        var health = new HealthHandlers(s.database(), s.metrics());
        r.get("/healthz", health::alive);
        r.get("/readyz", health::ready);
        r.get("/metrics", health::prometheus);
    }

    void alive(Context ctx) {
        ctx.json(Map.of("status", "ok"));
    }

    void ready(Context ctx) {
        if (database.isReachable()) {
            ctx.json(Map.of("status", "ready", "database", "reachable"));
        } else {
            ctx.status(503).json(Map.of("status", "not ready", "database", "unreachable"));
        }
    }

    void prometheus(Context ctx) {
        ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
    }
}
