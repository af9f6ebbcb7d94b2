package dev.ledgerlink;

import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.CallbackQueue;
import dev.ledgerlink.callbacks.DisablePolicy;
import dev.ledgerlink.callbacks.FailureRuns;
import dev.ledgerlink.callbacks.RekeyingLapses;
import dev.ledgerlink.config.DeliverySettings;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryEngine;
import dev.ledgerlink.delivery.DeliveryHooks;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.retry.RetrySchedule;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.ServiceClock;
import dev.ledgerlink.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Wiring: the delivery engine of a server process, made from the process's settings and parts.
 * {@link Services#withDeliveryEngine} hands it to the queue service as its
 * {@link dev.ledgerlink.delivery.HandOff} and starts it once every service is built; the server stops it.
 */
final class DeliveryEngineWiring {
    private DeliveryEngineWiring() {}

    static DeliveryEngine create(Settings s, ServiceClock clock, Database database, KeyRing keys, MeterRegistry metrics, Tracing tracing,
                                OperatorNotices notices, AuditLog audit, PublicAddressGate addressGate, CallbackQueue callbackQueue,
                                DeliveryHooks hooks) {
        DeliverySettings d = DeliverySettings.from(s);
        var config = new DeliveryEngine.Config(
                new RetryRule(new RetrySchedule(d.retrySchedule())),
                new FailureRuns(new DisablePolicy(d.disableAfter()), callbackQueue),
                new RekeyingLapses(new DisablePolicy(d.disableAfter()), callbackQueue),
                d.timeout(),
                d.lease(),
                d.stallMargin(),
                d.pollInterval(),
                d.concurrency(),
                d.perCallbackConcurrency(),
                addressGate,
                userAgent(),
                s.duration(dev.ledgerlink.config.Setting.SHUTDOWN_GRACE),
                d.rateLimit(),
                tracing,
                hooks);
        DeliveryEngine engine = new DeliveryEngine(config, database, clock, keys, metrics, notices, audit);
        // A move of the sandbox clock may make retries due at once: claim them now, not at the next poll.
        clock.onMove(engine::wake);
        return engine;
    }

    static String userAgent() {
        var build = dev.ledgerlink.config.BuildInfo.current();
        return "ledgerlink-webhooks/" + (build.known() ? build.version() : "0.1.0-SNAPSHOT");
    }
}
