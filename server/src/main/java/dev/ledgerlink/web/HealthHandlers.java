package dev.ledgerlink.web;

import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.store.Database;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;

/** Liveness, readiness and the Prometheus scrape. */
final class HealthHandlers {
    private final Database database;
    private final PrometheusMeterRegistry metrics;
    private final DeliveryService deliveries;
    private final Draining draining;

    HealthHandlers(Database database, PrometheusMeterRegistry metrics, DeliveryService deliveries, Draining draining) {
        this.database = database;
        this.metrics = metrics;
        this.deliveries = deliveries;
        this.draining = draining;
    }

    /** /healthz, /readyz and /metrics: on the API port, or on the management port when it is on. */
    static void register(io.javalin.config.RoutesConfig r, dev.ledgerlink.Services s, Draining draining) {
        var health = new HealthHandlers(s.database(), s.metrics(), s.deliveries(), draining);
        r.get("/healthz", health::alive);
        r.get("/readyz", health::ready);
        r.get("/metrics", health::prometheus);
    }

    /**
     * Alive unless the delivery dispatcher is stuck in one claim pass (DispatcherWatchdog): then only a
     * restart helps. A database that is down is not this: /readyz says that, and a restart would not help.
     */
    void alive(Context ctx) {
        var stalled = deliveries.dispatcherStalled();
        if (stalled.isPresent()) {
            ctx.status(503).json(Map.of("status", "stalled",
                    "delivery_dispatcher", "stuck in one claim pass for " + stalled.get().toSeconds() + " s"));
            return;
        }
        ctx.json(Map.of("status", "ok"));
    }

    /** Not ready once the process is stopping (a load balancer drains it), nor while the database is unreachable. */
    void ready(Context ctx) {
        if (draining.begun()) {
            ctx.status(503).json(Map.of("status", "stopping"));
        } else if (database.isReachable()) {
            ctx.json(Map.of("status", "ready", "database", "reachable"));
        } else {
            ctx.status(503).json(Map.of("status", "not ready", "database", "unreachable"));
        }
    }

    void prometheus(Context ctx) {
        ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
    }
}
