package dev.ledgerlink.web;

import dev.ledgerlink.Readiness;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The management port (management.port, off by default): /metrics, /healthz and /readyz on their own
 * listener, typically bound to an internal interface, so the scrape and the probes are not on the
 * public API port (which then no longer serves them). It opens first, before the database is opened
 * and migrated, so that probes see a process at work rather than a closed port: until the services
 * exist ({@link #serve}), /healthz answers 200 and /readyz 503 naming what start-up is doing
 * ("migrating V41 of V43"); a Kubernetes startupProbe on /healthz then gives a long migration its time.
 */
public final class ManagementServer {
    private final Javalin javalin;
    private final AtomicReference<HealthHandlers> serving = new AtomicReference<>();

    private ManagementServer(Javalin javalin) {
        this.javalin = javalin;
    }

    public static boolean enabled(Settings settings) {
        return !settings.get(Setting.MANAGEMENT_PORT).isBlank();
    }

    /**
     * The started listener, or null when management.port is empty. Until {@link #serve} it answers from
     * {@code readiness} alone; /readyz answers 503 once {@code draining} has begun.
     */
    public static ManagementServer start(Settings s, PrometheusMeterRegistry metrics, Readiness readiness, Draining draining) {
        if (!enabled(s)) return null;
        AtomicReference<ManagementServer> self = new AtomicReference<>();
        Javalin javalin = Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true;
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.http.defaultContentType = "application/json";
            config.routes.get("/healthz", ctx -> self.get().alive(ctx, readiness));
            config.routes.get("/readyz", ctx -> self.get().ready(ctx, readiness, draining));
            config.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
        });
        ManagementServer server = new ManagementServer(javalin);
        self.set(server);
        javalin.start(s.get(Setting.MANAGEMENT_HOST), s.integer(Setting.MANAGEMENT_PORT));
        return server;
    }

    /** From now on the probes judge the running services (the delivery dispatcher, the database). */
    public void serve(Services services, Draining draining) {
        serving.set(new HealthHandlers(services.database(), services.metrics(), services.deliveries(), draining, services.readiness()));
    }

    private void alive(Context ctx, Readiness readiness) {
        HealthHandlers h = serving.get();
        if (h != null) {
            h.alive(ctx);
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "ok");
        readiness.pending().ifPresent(work -> body.put("starting", work));
        ctx.json(body);
    }

    private void ready(Context ctx, Readiness readiness, Draining draining) {
        HealthHandlers h = serving.get();
        if (h != null) {
            h.ready(ctx);
            return;
        }
        if (draining.begun()) {
            ctx.status(503).json(Map.of("status", "stopping"));
            return;
        }
        ctx.status(503).json(Map.of("status", "not ready", "starting", readiness.pending().orElse("starting")));
    }

    public int port() {
        return javalin.port();
    }

    public void stop() {
        javalin.stop();
    }
}
