package dev.ledgerlink;

import dev.ledgerlink.callbacks.DisablePolicy;
import dev.ledgerlink.callbacks.FailureRuns;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryEngine;
import dev.ledgerlink.delivery.RetrySchedule;

/** Wiring: builds the engine of a server process from its settings and hooks it to the service's wake-ups. */
final class DeliveryEngines {
    private DeliveryEngines() {}

    static DeliveryEngine start(Services services) {
        Settings s = services.settings();
        var config = new DeliveryEngine.Config(
                new RetrySchedule(s.durations(Setting.DELIVERY_RETRY_SCHEDULE)),
                new FailureRuns(new DisablePolicy(s.duration(Setting.DELIVERY_DISABLE_AFTER))),
                s.duration(Setting.DELIVERY_TIMEOUT),
                s.duration(Setting.DELIVERY_LEASE),
                s.duration(Setting.DELIVERY_POLL_INTERVAL),
                Math.max(1, s.integer(Setting.DELIVERY_CONCURRENCY)),
                Math.max(1, s.integer(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY)),
                !s.flag(Setting.DEV),
                userAgent());
        DeliveryEngine engine = new DeliveryEngine(config, services.database(), services.clock(), services.secretBox(), services.metrics());
        services.deliveries().onEnqueued(engine::wake);
        return engine;
    }

    static String userAgent() {
        String v = DeliveryEngines.class.getPackage().getImplementationVersion();
        return "ledgerlink-webhooks/" + (v == null ? "0.1.0-SNAPSHOT" : v);
    }
}
