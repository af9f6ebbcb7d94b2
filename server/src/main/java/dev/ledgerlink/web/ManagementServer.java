package dev.ledgerlink.web;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import io.javalin.Javalin;

/**
 * The management port (management.port, off by default): /metrics, /healthz and /readyz on their own
 * listener, typically bound to an internal interface, so the scrape and the probes are not on the
 * public API port (which then no longer serves them).
 */
public final class ManagementServer {
    private ManagementServer() {}

    public static boolean enabled(Settings settings) {
        return !settings.get(Setting.MANAGEMENT_PORT).isBlank();
    }

    /** The started listener, or null when management.port is empty; its /readyz answers 503 once {@code draining} has begun. */
    public static Javalin start(Services services, Draining draining) {
        Settings s = services.settings();
        if (!enabled(s)) return null;
        return Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true;
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.http.defaultContentType = "application/json";
            HealthHandlers.register(config.routes, services, draining);
        }).start(s.get(Setting.MANAGEMENT_HOST), s.integer(Setting.MANAGEMENT_PORT));
    }
}
