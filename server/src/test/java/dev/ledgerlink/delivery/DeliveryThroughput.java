package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Not a test: a measurement to run by hand (see docs/delivery.md, "Performance"). Fans events out to
 * ten callbacks on one local receiver and reports deliveries per second, then the idle
 * publish-to-receive latency. Prints numbers; asserts nothing (timings vary with the machine).
 */
public final class DeliveryThroughput {
    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int callbacks = 10;
        try (TestServer server = TestServer.start(s -> s.set(dev.ledgerlink.config.Setting.DB_POOL_SIZE, "16"));
             Receiver receiver = new Receiver()) {
            var f = Fixtures.create(server);
            for (int i = 0; i < callbacks; i++) f.verified("invoice", receiver, receiver.uri() + "?c=" + i);
            receiver.clear();
            // warm-up
            for (int i = 0; i < 50; i++) f.publish("invoice.create", i + 1);
            receiver.await(50 * callbacks);
            receiver.clear();

            int total = events * callbacks;
            long start = System.nanoTime();
            for (int i = 0; i < events; i++) f.publish("invoice.create", i + 1);
            long published = System.nanoTime();
            int receivedWhilePublishing = receiver.received();
            try {
                receiver.await(total);
            } finally {
                System.out.println("failed attempts so far: " + server.services().database().jdbi().withHandle(h -> h.createQuery(
                        "select error || ' x' || count(*) from delivery_attempts where error is not null group by error").mapTo(String.class).list()));
            }
            long done = System.nanoTime();
            System.out.printf("published %d events (%d deliveries) in %d ms; all received after %d ms: %.0f deliveries/s overall%n",
                    events, total, (published - start) / 1_000_000, (done - start) / 1_000_000, total / ((done - start) / 1e9));
            System.out.printf("after publishing ended: %d deliveries in %d ms: %.0f deliveries/s%n", total - receivedWhilePublishing,
                    (done - published) / 1_000_000, (total - receivedWhilePublishing) / ((done - published) / 1e9));

            // The engine alone: queue every (event, callback) pair in one statement, then drain.
            receiver.clear();
            java.time.Instant now = dev.ledgerlink.store.DbTime.now(server.clock);
            long drainStart = System.nanoTime();
            int queued = server.services().database().jdbi().withHandle(h -> h.createUpdate("""
                    insert into deliveries (callback_id, event_id, kind, state, attempts, next_attempt_at, created_at)
                    select c.id, e.id, 'event', 'pending', 0, :now, :now from events e cross join callbacks c""")
                    .bind("now", now).execute());
            server.services().deliveries().enqueued();
            try {
                receiver.await(queued);
            } finally {
                System.out.println("failed attempts so far: " + server.services().database().jdbi().withHandle(h -> h.createQuery(
                        "select error || ' x' || count(*) from delivery_attempts where error is not null group by error").mapTo(String.class).list()));
            }
            long drained = System.nanoTime();
            System.out.printf("engine alone: %d queued deliveries drained in %d ms: %.0f deliveries/s%n",
                    queued, (drained - drainStart) / 1_000_000, queued / ((drained - drainStart) / 1e9));

            receiver.clear();
            List<Long> latencies = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int before = receiver.received();
                long t0 = System.nanoTime();
                f.publish("invoice.update", i + 1);
                receiver.await(before + callbacks);
                latencies.add((System.nanoTime() - t0) / 1_000);
            }
            Collections.sort(latencies);
            System.out.printf("idle publish-to-receive (all %d callbacks), 200 events: p50 %.1f ms, p99 %.1f ms%n",
                    callbacks, latencies.get(100) / 1000.0, latencies.get(197) / 1000.0);
        }
    }
}
