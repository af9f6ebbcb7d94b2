package dev.ledgerlink.notifications;

import dev.ledgerlink.store.TimeMapping;
import dev.ledgerlink.store.DbTime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends due operator notifications to notifications.url, one at a time (they are few), each claimed
 * with a lease first so several nodes never send the same one at once and a crashed node's claim
 * falls due again. A non-2xx answer or no answer is retried after the delivery retry schedule; after
 * the last retry the notice is marked failed and logged. No transaction is held across the POST.
 */
public final class NotificationSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NotificationSender.class);
    private static final Duration LEASE = Duration.ofMinutes(2);

    private final NotificationSettings settings;
    private final Jdbi jdbi;
    private final Clock clock;
    private final HttpClient client;
    private final Counter sent;
    private final Counter failedAttempts;
    private final Counter givenUp;
    private final String token = "notifier-" + UUID.randomUUID().toString().substring(0, 8);
    private final Thread thread;
    private volatile boolean running = true;

    public NotificationSender(NotificationSettings settings, Jdbi jdbi, Clock clock, MeterRegistry registry) {
        this.settings = settings;
        this.jdbi = jdbi;
        this.clock = clock;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(settings.timeout()).build();
        this.sent = Counter.builder("ledgerlink.notifications.sent").description("Operator notifications answered with a 2xx").register(registry);
        this.failedAttempts = Counter.builder("ledgerlink.notifications.failed").description("Failed attempts to send an operator notification").register(registry);
        this.givenUp = Counter.builder("ledgerlink.notifications.given.up").description("Operator notifications given up after the last retry").register(registry);
        this.thread = Thread.ofPlatform().name("operator-notifications").daemon().start(this::loop);
    }

    private void loop() {
        while (running) {
            try {
                if (sendDue() == 0) Thread.sleep(settings.pollInterval());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) return;
                LOG.warn("operator notifications: {}", e.toString());
                try {
                    Thread.sleep(settings.pollInterval());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Sends what is due now; returns how many were attempted. */
    int sendDue() {
        Instant now = DbTime.now(clock);
        List<Long> due = jdbi.withHandle(h -> h.createQuery(NotificationOutbox.DUE).bind("now", now).bind("limit", 20).mapTo(Long.class).list());
        int attempted = 0;
        for (long id : due) {
            if (!running) break;
            boolean mine = jdbi.withHandle(h -> h.createUpdate(NotificationOutbox.CLAIM).bind("token", token)
                    .bind("leaseUntil", now.plus(LEASE)).bind("id", id).bind("now", now).execute()) == 1;
            if (mine) {
                send(id);
                attempted++;
            }
        }
        return attempted;
    }

    private void send(long id) {
        record Notice(long id, String type, String data, int occurrences, int attempts, Instant created) {}
        Notice n = jdbi.withHandle(h -> h.createQuery(NotificationOutbox.LOAD).bind("id", id).bind("token", token)
                .map((rs, ctx) -> new Notice(rs.getLong("id"), rs.getString("type"), rs.getString("data"), rs.getInt("occurrences"),
                        rs.getInt("attempts"), TimeMapping.read(rs, "created_at")))
                .findOne().orElse(null));
        if (n == null) return;
        Instant at = DbTime.now(clock);
        String error;
        try {
            NotificationMessage m = NotificationMessage.of(n.id(), n.type(), n.data(), n.occurrences(), n.created(), at, settings.key());
            HttpRequest.Builder request = HttpRequest.newBuilder(settings.url()).timeout(settings.timeout())
                    .header("Content-Type", "application/json").header("User-Agent", "ledgerlink-notifications")
                    .POST(HttpRequest.BodyPublishers.ofString(m.body()));
            m.headers().forEach(request::header);
            int status = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status >= 200 && status < 300) {
                jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.SENT).bind("id", id).bind("token", token).bind("now", DbTime.now(clock)).execute());
                sent.increment();
                return;
            }
            error = "HTTP " + status;
        } catch (java.io.IOException e) {
            error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        }
        failed(n.id(), n.type(), n.attempts() + 1, error);
    }

    private void failed(long id, String type, int attempts, String error) {
        failedAttempts.increment();
        String why = error.length() > 500 ? error.substring(0, 500) : error;
        Instant now = DbTime.now(clock);
        List<Duration> retries = settings.retries();
        if (attempts <= retries.size()) {
            jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.RETRY).bind("id", id).bind("token", token).bind("error", why)
                    .bind("next", now.plus(retries.get(attempts - 1))).execute());
            return;
        }
        jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.GIVE_UP).bind("id", id).bind("token", token).bind("error", why).bind("now", now).execute());
        givenUp.increment();
        LOG.warn("operator notification {} ({}) given up after {} attempts: {}", id, type, attempts, why);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
