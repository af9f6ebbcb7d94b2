package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-keying across a crash: a real server process is killed with SIGKILL between a callback's
 * resend and its verification, holding a retry that was pending at the resend and a delivery
 * published after it. A second process sends both, with the new code, once it is verified: what is
 * held lives in the database only. The API calls go through the services of this JVM (as the CLI
 * does), without a delivery engine; the processes send.
 */
@Heavy
class RekeyingCrashTest {
    /**
     * Retries an hour apart: a delivery sent after the verification was released by it. The timeout
     * is the default one, so that a slow answer on a loaded machine does not count as a failure.
     */
    private static final String[] SETTINGS = {"delivery.lease=PT20S", "delivery.timeout=PT10S", "delivery.poll-interval=PT0.1S", "delivery.retry-schedule=PT1H,PT1H"};

    @TempDir
    Path dir;

    @Test
    void aServerKilledBetweenResendAndVerificationLosesNothingHeld() throws Exception {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String key = SecretBox.newKeyBase64();
        try (Receiver receiver = new Receiver()) {
            Fixtures f;
            long id;
            String oldCode;
            try (TestServer server = TestServer.start(db, t -> t.set(Setting.SECRETS_KEY, key).set(Setting.DB_POOL_SIZE, "4"))) {
                f = Fixtures.create(server);
                var verified = f.verified("invoice", receiver);
                id = verified.id();
                oldCode = verified.code();
                f.verificationsRecorded(id);
            }
            AtomicInteger events = new AtomicInteger();
            receiver.answer(r -> Receiver.Answer.of("invoice.create".equals(r.param("name")) && events.incrementAndGet() == 1 ? 500 : 200));
            Settings settings = Settings.builder().set(Setting.DB_URL, db.url()).set(Setting.DB_USER, db.user())
                    .set(Setting.DB_POOL_SIZE, "4").set(Setting.SECRETS_KEY, key).build();
            Services s = Services.create(settings, Clock.systemUTC(), LedgerlinkServer.openDatabase(settings, null),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            try {
                Path log = dir.resolve("first.log");
                String newCode;
                try (ServerProcess first = ServerProcess.start(db, key, log, SETTINGS)) {
                    first.awaitBaseUrl();
                    publish(s, f, 1);
                    Deliveries.await("the first attempt failed and was recorded", () -> notifications(s, id).size() == 1
                            && notifications(s, id).getFirst().attemptCount() == 1);
                    s.callbacks().resend(f.principal(), f.account().accountId(), id);
                    newCode = Fixtures.verificationRequest(id, receiver).param("verifier");   // the process sent it
                    assertEquals(1, publish(s, f, 2), "the held delivery is counted");
                    assertEquals(List.of(DeliveryState.HELD, DeliveryState.HELD), notifications(s, id).stream().map(DeliveryRecord::state).toList());
                    first.kill();
                }
                assertNotEquals(oldCode, newCode);
                assertEquals(List.of(DeliveryState.HELD, DeliveryState.HELD), notifications(s, id).stream().map(DeliveryRecord::state).toList(),
                        "held across the kill");

                log = dir.resolve("second.log");   // its own: awaitBaseUrl takes the first ready line of the file
                try (ServerProcess second = ServerProcess.start(db, key, log, SETTINGS)) {
                    second.awaitBaseUrl();
                    s.callbacks().verify(f.principal(), f.account().accountId(), id, newCode);
                    Deliveries.await("both delivered after the verification (log " + log + ")", () -> notifications(s, id).stream()
                            .allMatch(d -> d.state() == DeliveryState.DELIVERED));
                }
                List<Receiver.Request> sent = receiver.await(3, r -> "invoice.create".equals(r.param("name")));
                assertEquals(3, sent.size(), "object 1's failed attempt, then objects 1 and 2 once each");
                assertTrue(ServiceSignature.verify(oldCode, sent.getFirst().body(), sent.getFirst().signature()));
                for (Receiver.Request r : sent.subList(1, 3)) {
                    assertTrue(ServiceSignature.verify(newCode, r.body(), r.signature()), "signed with the new code: " + r.body());
                }
                assertEquals(Set.of("1", "2"), Set.of(sent.get(1).param("object_id"), sent.get(2).param("object_id")));
            } finally {
                s.database().close();
            }
        }
    }

    private static int publish(Services s, Fixtures f, long objectId) {
        return s.events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), objectId, f.user().id(), null)).deliveries();
    }

    private static List<DeliveryRecord> notifications(Services s, long callbackId) {
        return Deliveries.notifications(s, callbackId);
    }
}
