package dev.ledgerlink.delivery;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A database several server processes ({@link ServerProcess}) share, with an account whose callbacks
 * were verified through the handshake (the shared fixtures, on an in-process server over that
 * database, stopped before the processes start), and this test's own services on it without a
 * delivery engine, to publish and count.
 */
record SharedQueue(Services services, Fixtures fixture, TestDatabases.TestDb db, String key) implements AutoCloseable {

    /** One subscription: the event name (or noun) a callback at the receiver's address subscribes to. */
    record Subscription(String event, Receiver receiver) {}

    static SharedQueue create(Path dir, Subscription... subscriptions) {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        Fixtures f;
        try (TestServer server = TestServer.start(db, t -> t.set(Setting.SECRETS_KEY, key).set(Setting.DB_POOL_SIZE, "4"))) {
            f = Fixtures.create(server);
            for (Subscription s : subscriptions) f.verificationsRecorded(f.verified(s.event(), s.receiver()).id());
        }
        Settings settings = Settings.builder().set(Setting.DB_URL, db.url()).set(Setting.DB_USER, db.user())
                .set(Setting.DB_POOL_SIZE, "4").set(Setting.SECRETS_KEY, key).build();
        Services s = Services.create(settings, Clock.systemUTC(), LedgerlinkServer.openDatabase(settings, null),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        return new SharedQueue(s, f, db, key);
    }

    /** Publishes {@code events} invoice.create events (object ids 1..n) through the services, queued unleased. */
    void publish(int events) {
        for (int i = 1; i <= events; i++) {
            services.events().publish(new EventPublisher.Request("invoice.create", fixture.account().accountId(), (long) i, fixture.user().id(), null));
        }
    }

    /** Event deliveries in this state (the handshakes' verification requests are not counted). */
    long count(String state) {
        return services.database().jdbi().withHandle(h -> h.createQuery("select count(*) from deliveries where state = :s and kind = 'event'")
                .bind("s", state).mapTo(Long.class).one());
    }

    @Override
    public void close() {
        services.database().close();
    }
}
