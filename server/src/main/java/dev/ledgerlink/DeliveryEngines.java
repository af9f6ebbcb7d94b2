package dev.ledgerlink;

import dev.ledgerlink.callbacks.DisablePolicy;
import dev.ledgerlink.callbacks.FailureRuns;
import dev.ledgerlink.config.DeliverySettings;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryEngine;
import dev.ledgerlink.delivery.RetrySchedule;

/** Wiring: builds the engine of a server process from its settings and hooks it to the service's wake-ups. */
final class DeliveryEngines {
    private DeliveryEngines() {}

    static DeliveryEngine start(Services services) {
        Settings s = services.settings();
        DeliverySettings d = DeliverySettings.from(s);
        var config = new DeliveryEngine.Config(
                new RetrySchedule(d.retrySchedule()),
                new FailureRuns(new DisablePolicy(d.disableAfter())),
                d.timeout(),
                d.lease(),
                d.stallMargin(),
                d.pollInterval(),
                d.concurrency(),
                d.perCallbackConcurrency(),
                !s.flag(Setting.DEV),
                userAgent());
        DeliveryEngine engine = new DeliveryEngine(config, services.database(), services.clock(), services.secretBox(), services.metrics(), services.notices(),
                services.audit());
        services.deliveries().onEnqueued(engine::wake);
        services.deliveries().handOffTo(engine);
        services.deliveries().onStallCheck(engine::stalled);
        return engine;
    }

    static String userAgent() {
        var build = dev.ledgerlink.config.BuildInfo.current();
        return "ledgerlink-webhooks/" + (build.known() ? build.version() : "0.1.0-SNAPSHOT");
    }
}
