package dev.ledgerlink.notifications;

import dev.ledgerlink.delivery.DeliveryState;
import static dev.ledgerlink.testing.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.QueryPlans;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.StandardWebhooksLibrary;
import dev.ledgerlink.testing.TestServer;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.Heavy;

/**
 * Operator notifications end to end: what triggers them, over real HTTP to a real receiver, checked
 * with the Standard Webhooks reference library (node, npm standardwebhooks).
 */
@Heavy
class OperatorNotificationsTest {
    private final String secret = "whsec_" + Base64.getEncoder().encodeToString(SecureRandom.getSeed(32));

    private TestServer server(Receiver operator) {
        return TestServer.start(s -> s.set(Setting.NOTIFICATIONS_URL, operator.uri()).set(Setting.NOTIFICATIONS_SECRET, secret)
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S").set(Setting.DELIVERY_RETRY_SCHEDULE, "PT0.2S,PT0.2S"));
    }

    /** The sender takes due notices in the order of operator_notifications_due, read from the index, not sorted. */
    @Test
    void dueNoticesAreReadInIndexOrder() {
        try (Receiver operator = new Receiver(); TestServer server = server(operator)) {
            server.services().database().jdbi().useHandle(h -> QueryPlans.assertReadInIndexOrder(h, NotificationOutbox.DUE,
                    q -> q.bind("now", Instant.now()).bind("limit", 20)));
        }
    }

    @Test
    void anEndpointAnswering410HasItsCallbackDisabledAtOnceAndTheOperatorHearsOfItAndOfTheDrops() {
        try (Receiver operator = new Receiver(); TestServer server = server(operator); Receiver gone = new Receiver()) {
            var f = Fixtures.create(server);
            long id = f.verified("invoice", gone).id();
            f.verificationsRecorded(id);
            gone.clear();
            // The first 410 disables the callback, and a callback disabled takes no new deliveries:
            // the endpoint answers only once all three events are published (each has its delivery).
            CountDownLatch published = new CountDownLatch(1);
            gone.answer(r -> {
                try {
                    published.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Receiver.Answer.of(410);
            });
            for (long object = 1; object <= 3; object++) f.publish("invoice.create", object);
            published.countDown();

            Receiver.Request disabled = operator.await(1, r -> r.body().contains("callback.disabled")).getFirst();
            JsonNode payload = verified(disabled, null);
            assertEquals("callback.disabled", payload.get("type").asText());
            assertEquals(id, payload.get("data").get("callback_id").asLong());
            assertEquals(f.account().accountId(), payload.get("data").get("account_id").asText());
            assertEquals(gone.uri(), payload.get("data").get("uri").asText());
            assertTrue(payload.get("data").get("reason").asText().contains("410 Gone"), payload.toString());

            String token = f.issue(Set.of("user:invoices:read")).accessToken();
            JsonNode callback = server.http.get("/events/account/" + f.account().accountId() + "/events/callbacks/" + id,
                    "Authorization", "Bearer " + token).json().get("response").get("result").get("callback");
            assertTrue(callback.get("disabled").asBoolean(), callback.toString());
            var deliveries = server.services().deliveryReads().history(null, id, 1, 10).deliveries().stream()
                    .filter(d -> !d.name().equals("callback.verify")).toList();
            assertEquals(3, deliveries.size());
            deliveries.forEach(d -> assertEquals(DeliveryState.DROPPED, d.state(), "410 is never retried: " + d));
            assertTrue(gone.received() <= 3, "no retries after 410");

            // Drops are told once per callback per hour, when the hour is over.
            server.clock.advance(Duration.ofHours(1));
            Receiver.Request drops = operator.await(1, r -> r.body().contains("deliveries.dropped")).getFirst();
            JsonNode dropped = verified(drops, server.clock.instant().getEpochSecond());
            assertEquals(id, dropped.get("data").get("callback_id").asLong());
            assertEquals(3, dropped.get("data").get("dropped").asInt(), dropped.toString());
            assertEquals(1, operator.requests.stream().filter(r -> r.body().contains("deliveries.dropped")).count());
        }
    }

    @Test
    void aRefreshTokenReplayThatRevokesTheGrantNotifiesTheOperatorOnce() {
        try (Receiver operator = new Receiver(); TestServer server = server(operator)) {
            var f = Fixtures.create(server);
            JsonNode first = OAuthFlows.exchange(server, f, OAuthFlows.code(server, f)).json();
            String used = first.get("refresh_token").asText();
            assertEquals(200, OAuthFlows.refresh(server, f, used).status());
            server.clock.advance(Duration.ofSeconds(31));
            OAuthFlows.assertOAuthError(OAuthFlows.refresh(server, f, used), 400, "invalid_grant");
            OAuthFlows.assertOAuthError(OAuthFlows.refresh(server, f, used), 400, "invalid_grant");

            JsonNode payload = verified(operator.await(1).getFirst(), server.clock.instant().getEpochSecond());
            assertEquals("grant.revoked", payload.get("type").asText());
            assertEquals(f.user().id(), payload.get("data").get("user_id").asLong());
            assertEquals(f.app().id(), payload.get("data").get("application_id").asLong());
            assertEquals("refresh token replay", payload.get("data").get("reason").asText());
            await("a second replay ends nothing more and tells nothing more", () -> pending(server) == 0);
            assertEquals(1, operator.received());
        }
    }

    @Test
    void aNotificationTheEndpointRefusesIsRetriedWithTheSameIdUntilAccepted() {
        try (Receiver operator = new Receiver(); TestServer server = server(operator); Receiver gone = new Receiver()) {
            AtomicInteger calls = new AtomicInteger();
            operator.answer(r -> Receiver.Answer.of(calls.incrementAndGet() == 1 ? 503 : 204));
            var f = Fixtures.create(server);
            f.verificationsRecorded(f.verified("client", gone).id());
            gone.answer(r -> Receiver.Answer.of(410));
            f.publish("client.create", 1);
            operator.await(1);
            await("retried and accepted", () -> {
                server.clock.advance(Duration.ofMillis(100));
                return operator.requests.stream().filter(r -> r.body().contains("callback.disabled")).count() >= 2 && pending(server) <= 1;
            });
            List<Receiver.Request> tries = operator.requests.stream().filter(r -> r.body().contains("callback.disabled")).toList();
            assertEquals(2, tries.size());
            assertEquals(tries.get(0).header(StandardWebhooks.ID), tries.get(1).header(StandardWebhooks.ID));
            verified(tries.get(1), server.clock.instant().getEpochSecond());
        }
    }

    @Test
    void aNotificationsUrlWithoutAValidSecretStopsTheServerAtStart() {
        var e = assertThrows(ConfigurationException.class, () -> TestServer.start(s -> s.set(Setting.NOTIFICATIONS_URL, "https://ops.example.com/hook")
                .set(Setting.NOTIFICATIONS_SECRET, "not-a-secret")).close());
        assertTrue(e.getMessage().contains("notifications.secret"), e.getMessage());
    }

    private JsonNode verified(Receiver.Request r, Long now) {
        assertEquals("application/json", r.header("Content-Type"));
        return StandardWebhooksLibrary.verify(secret, Map.of(
                StandardWebhooks.ID, r.header(StandardWebhooks.ID),
                StandardWebhooks.TIMESTAMP, r.header(StandardWebhooks.TIMESTAMP),
                StandardWebhooks.SIGNATURE, r.header(StandardWebhooks.SIGNATURE)), r.body(), now);
    }

    private static long pending(TestServer server) {
        return server.services().database().jdbi().withHandle(h ->
                h.createQuery("select count(*) from operator_notifications where state = 'pending'").mapTo(Long.class).one());
    }
}
