package dev.ledgerlink.notifications;

import dev.ledgerlink.retry.RetryAfter;
import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.retry.RetrySchedule;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.store.TimeMapping;
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
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends due operator notifications to notifications.url, one at a time (they are few), each claimed
 * with a lease first so several nodes never send the same one at once and a crashed node's claim
 * falls due again. What follows each attempt is the delivery engine's rule ({@link RetryRule}, with
 * delivery.retry-schedule): sent on a 2xx; otherwise retried after the schedule's wait (with its
 * jitter, and no sooner than a 429's or 503's Retry-After), or, after the last retry or on a 410
 * Gone, marked failed and logged. No transaction is held across the POST.
 */
public final class NotificationSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NotificationSender.class);
    private static final Duration LEASE = Duration.ofMinutes(2);

    private final NotificationSettings settings;
    private final RetryRule rule;
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
        this.rule = new RetryRule(new RetrySchedule(settings.retries()));
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
        Integer status = null;
        Duration retryAfter = null;
        String error;
        try {
            NotificationMessage m = NotificationMessage.of(n.id(), n.type(), n.data(), n.occurrences(), n.created(), at, settings.key());
            HttpRequest.Builder request = HttpRequest.newBuilder(settings.url()).timeout(settings.timeout())
                    .header("Content-Type", "application/json").header("User-Agent", "ledgerlink-notifications")
                    .POST(HttpRequest.BodyPublishers.ofString(m.body()));
            m.headers().forEach(request::header);
            HttpResponse<Void> response = client.send(request.build(), HttpResponse.BodyHandlers.discarding());
            status = response.statusCode();
            retryAfter = RetryAfter.parse(status, response.headers().firstValue("Retry-After").orElse(null), DbTime.now(clock));
            error = "HTTP " + status;
        } catch (java.io.IOException e) {
            error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        }
        recordOutcome(n.id(), n.type(), n.attempts() + 1, status, retryAfter, error);
    }

    /** What follows the attempt is the delivery engine's rule ({@link RetryRule}): sent, retried, or given up. */
    private void recordOutcome(long id, String type, int attempt, Integer status, Duration retryAfter, String error) {
        Instant now = DbTime.now(clock);
        String why = error.length() > 500 ? error.substring(0, 500) : error;
        switch (rule.after(attempt, status, retryAfter, now, ThreadLocalRandom.current().nextDouble())) {
            case RetryRule.Delivered sentNow -> {
                jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.SENT).bind("id", id).bind("token", token).bind("now", now).execute());
                sent.increment();
            }
            case RetryRule.RetryAt retry -> {
                failedAttempts.increment();
                jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.RETRY).bind("id", id).bind("token", token).bind("error", why)
                        .bind("next", retry.at()).execute());
            }
            case RetryRule.Dropped last -> giveUp(id, type, attempt, why, last.reason(), now);
            case RetryRule.Gone gone -> giveUp(id, type, attempt, why, gone.reason(), now);
        }
    }

    private void giveUp(long id, String type, int attempts, String error, String reason, Instant now) {
        failedAttempts.increment();
        jdbi.useHandle(h -> h.createUpdate(NotificationOutbox.GIVE_UP).bind("id", id).bind("token", token).bind("error", error).bind("now", now).execute());
        givenUp.increment();
        LOG.warn("operator notification {} ({}) given up after {} attempts, {}: {}", id, type, attempts, reason, error);
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
