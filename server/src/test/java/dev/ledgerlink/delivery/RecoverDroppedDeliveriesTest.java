package dev.ledgerlink.delivery;

import dev.ledgerlink.testing.Receiver;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Recover against a real receiver: five events, four of which fail until dropped, one inside the
 * window delivered; recovering the window re-sends exactly its two dropped deliveries, each under
 * its original webhook-id, paced; the CLI recovers the others.
 */
@LedgerlinkTest
@ServerSettings({"delivery.retry-schedule=PT0.2S", "delivery.poll-interval=PT0.1S", "delivery.recover-spacing=PT0.3S"})
class RecoverDroppedDeliveriesTest {
    private static final Duration SPACING = Duration.ofMillis(300);
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    /** Publishes object ids 1..5 with the window [since, until) around 2, 3 and 4; waits until each is delivered or dropped. */
    private record Scenario(Fixtures f, long callbackId, Instant before, Instant since, Instant until, Instant after,
                            Map<String, String> webhookIds) {}

    private static Scenario failFourOfFive(Fixtures f, Receiver receiver) {
        long id = f.verified("invoice", receiver).id();
        // The clock jumps hours below: a verification attempt not yet recorded would outlive its
        // lease, be sent again into the failing receiver and be dropped, a fifth.
        f.verificationsRecorded(id);
        receiver.clear();
        receiver.answer(r -> Receiver.Answer.of("4".equals(FormParams.parse(r.body()).get("object_id")) ? 200 : 500));
        Instant before = server.clock.instant();
        f.publish("invoice.create", 1);
        server.clock.advance(Duration.ofHours(1));
        Instant since = server.clock.instant().minusSeconds(1);   // stored times are whole microseconds: keep clear of the edge
        for (long object = 2; object <= 4; object++) f.publish("invoice.update", object);
        server.clock.advance(Duration.ofHours(1));
        Instant until = server.clock.instant();
        server.clock.advance(Duration.ofMinutes(1));
        f.publish("invoice.delete", 5);
        Deliveries.await("every delivery delivered or dropped", () -> {
            var notifications = Deliveries.notifications(server.services(), id);
            return notifications.size() == 5 && notifications.stream().noneMatch(d -> d.state() == DeliveryState.PENDING);
        });
        Map<String, String> webhookIds = new HashMap<>();
        for (Receiver.Request r : receiver.requests) webhookIds.put(FormParams.parse(r.body()).get("object_id"), r.header(StandardWebhooks.ID));
        Instant after = server.clock.instant().plus(Duration.ofMinutes(1));
        return new Scenario(f, id, before, since, until, after, webhookIds);
    }

    @Test
    void recoverResendsExactlyTheDroppedDeliveriesOfTheWindowUnderTheirWebhookIds() {
        try (var ticking = server.clock.followRealTime()) {
            Scenario sc = failFourOfFive(f, receiver);
            var dropped = server.services().deliveryReads().search(sc.callbackId(), "dropped", null, null, Paging.of(1, 100));
            assertEquals(4, dropped.total(), "objects 1, 2, 3 and 5 failed twice and were dropped");
            JsonNode listed = ServerCli.json(server, "deliveries", "list", "--callback", Long.toString(sc.callbackId()), "--state", "dropped",
                    "--since", sc.since().toString(), "--until", sc.until().toString(), "--json");
            assertEquals(2, listed.get("total").asInt(), "the operator sees the window's two dropped deliveries first: " + listed);
            assertEquals(2, ServerCli.run(server, "deliveries", "list", "--callback", "999999").exitCode(), "unknown callback");
            receiver.clear();
            receiver.answer(r -> Receiver.Answer.of(200));

            String token = f.issue(Set.of("user:invoices:read")).accessToken();
            String path = "/events/account/" + f.account().accountId() + "/events/callbacks/" + sc.callbackId() + "/recover";
            TestHttp.Response r = server.http.postJson(path, "{\"since\": \"" + sc.since() + "\", \"until\": \"" + sc.until() + "\"}",
                    "Authorization", "Bearer " + token, "Api-Version", "alpha");
            assertEquals(200, r.status(), r.body());
            JsonNode result = r.json().at("/response/result");
            assertEquals(2, result.get("requeued").asInt(), r.body());
            assertEquals(SPACING, Duration.between(Instant.parse(result.get("first_attempt_at").asText()),
                    Instant.parse(result.get("last_attempt_at").asText())), "the second falls due one spacing after the first");

            List<Receiver.Request> resent = receiver.await(2);
            Deliveries.await("both recovered deliveries delivered", () -> Deliveries.notifications(server.services(), sc.callbackId())
                    .stream().filter(d -> d.state() == DeliveryState.DELIVERED).count() == 3);
            assertEquals(2, receiver.received(), "nothing else was sent");
            Set<String> objects = new TreeSet<>();
            for (Receiver.Request req : resent) {
                String object = FormParams.parse(req.body()).get("object_id");
                objects.add(object);
                assertEquals(sc.webhookIds().get(object), req.header(StandardWebhooks.ID), "the original webhook-id of object " + object);
            }
            assertEquals(Set.of("2", "3"), objects);
            assertEquals(2, server.services().deliveryReads().search(sc.callbackId(), "dropped", null, null, Paging.of(1, 100)).total(),
                    "objects 1 and 5, outside the window, stay dropped");

            TestHttp.Response again = server.http.postJson(path, "{\"since\": \"" + sc.since() + "\", \"until\": \"" + sc.until() + "\"}",
                    "Authorization", "Bearer " + token);
            assertEquals(0, again.json().at("/response/result/requeued").asInt(), "nothing left to recover in the window");

            // The operators' CLI recovers the rest: the whole span, with an explicit until (the CLI's clock is the real one).
            JsonNode cli = ServerCli.json(server, "deliveries", "recover", "--callback", Long.toString(sc.callbackId()),
                    "--since", sc.before().minusSeconds(60).toString(), "--until", sc.after().toString(), "--json");
            assertEquals(2, cli.at("/recover/requeued").asInt(), cli.toString());
            List<Receiver.Request> all = receiver.await(4);
            Set<String> rest = new TreeSet<>();
            for (Receiver.Request req : all.subList(2, all.size())) rest.add(FormParams.parse(req.body()).get("object_id"));
            assertEquals(Set.of("1", "5"), rest);
        }
    }

    @Test
    void badWindowsAreClear422sAndOthersCallbacksAreRefused() {
        long id = f.verified("invoice", receiver).id();
        String token = f.issue(Set.of("user:invoices:read")).accessToken();
        String path = "/events/account/" + f.account().accountId() + "/events/callbacks/" + id + "/recover";
        String[] auth = {"Authorization", "Bearer " + token};
        Map<String, String> cases = Map.of(
                "{}", "since",
                "{\"since\": \"yesterday\"}", "since",
                "{\"since\": \"2026-11-20T08:00:00Z\", \"until\": \"2026-11-19T08:00:00Z\"}", "since",
                "{\"since\": \"2026-01-01T00:00:00Z\", \"until\": \"2026-11-19T08:00:00Z\"}", "until",
                "{\"since\": 1700000000}", "since",
                "{\"since\": \"2026-11-20T08:00:00\"}", "since");
        for (var c : cases.entrySet()) {
            TestHttp.Response r = server.http.postJson(path, c.getKey(), auth);
            assertEquals(422, r.status(), c.getKey() + " -> " + r.body());
            assertEquals(c.getValue(), r.json().at("/details/0/fieldViolations/0/field").asText(), c.getKey() + " -> " + r.body());
        }
        assertEquals(400, server.http.postJson(path, "[1]", auth).status());
        assertEquals(401, server.http.postJson(path, "{\"since\": \"2026-11-20T08:00:00Z\"}").status());
        assertEquals(404, server.http.postJson("/events/account/" + f.account().accountId() + "/events/callbacks/" + (id + 999) + "/recover",
                "{\"since\": \"2026-11-20T08:00:00Z\"}", auth).status());
        var other = Fixtures.create(server);
        assertEquals(403, server.http.postJson("/events/account/" + other.account().accountId() + "/events/callbacks/" + id + "/recover",
                "{\"since\": \"2026-11-20T08:00:00Z\"}", auth).status());
        String since = server.clock.instant().minus(Duration.ofDays(1)).toString();
        f.resend(id);   // unverified until the new code comes back
        TestHttp.Response unverified = server.http.postJson(path, "{\"since\": \"" + since + "\"}", auth);
        assertEquals(409, unverified.status(), unverified.body());
    }
}
