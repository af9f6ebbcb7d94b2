package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.cli.Main;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The history over HTTP (bearer, like the callbacks routes) and the operator CLI, on a callback made through the real API. */
@LedgerlinkTest
@ServerSettings({"delivery.retry-schedule=PT0.2S,PT0.2S", "delivery.poll-interval=PT0.1S"})
class DeliveryHistoryTest {
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    void everyAttemptOfACallbacksDeliveriesIsListedPagedNewestFirst() {
        try (var ticking = server.clock.followRealTime()) {
            String token = f.issue(Set.of("user:invoices:read")).accessToken();
            String base = "/events/account/" + f.account().accountId() + "/events/callbacks";
            String[] auth = {"Authorization", "Bearer " + token, "Api-Version", "alpha"};

            TestHttp.Response created = server.http.postJson(base, "{\"callback\": {\"event\": \"invoice\", \"uri\": \"" + receiver.uri() + "\"}}", auth);
            assertEquals(200, created.status(), created.body());
            long id = created.json().at("/response/result/callback/callbackid").asLong();
            String code = FormParams.parse(receiver.await(1).getFirst().body()).get("verifier");
            assertEquals(200, server.http.putJson(base + "/" + id, "{\"callback\": {\"verifier\": \"" + code + "\"}}", auth).status());

            AtomicInteger calls = new AtomicInteger();
            receiver.answer(r -> Receiver.Answer.of(calls.incrementAndGet() == 1 ? 500 : 200));
            f.publish("invoice.create", 77);
            Deliveries.await("delivered after a retry", () -> server.services().deliveryReads().history(null, id, 1, 10).deliveries().getFirst().state() == DeliveryState.DELIVERED);

            TestHttp.Response page = server.http.get(base + "/" + id + "/deliveries?per_page=1", auth);
            assertEquals(200, page.status(), page.body());
            JsonNode result = page.json().at("/response/result");
            assertEquals(2, result.get("total").asInt());
            assertEquals(2, result.get("pages").asInt());
            JsonNode newest = result.get("deliveries").get(0);
            assertEquals("invoice.create", newest.get("name").asText());
            assertEquals("delivered", newest.get("state").asText());
            assertEquals(500, newest.at("/attempts/0/status_code").asInt());
            assertEquals(200, newest.at("/attempts/1/status_code").asInt());
            assertEquals("ok 200", newest.at("/attempts/1/response_body").asText());
            JsonNode older = server.http.get(base + "/" + id + "/deliveries?page=2&per_page=1", auth).json().at("/response/result/deliveries/0");
            assertEquals("callback.verify", older.get("name").asText());

            assertEquals(401, server.http.get(base + "/" + id + "/deliveries", "Api-Version", "alpha").status());
            assertEquals(404, server.http.get(base + "/" + (id + 1000) + "/deliveries", auth).status());
            var other = Fixtures.create(server);
            assertEquals(403, server.http.get("/events/account/" + other.account().accountId() + "/events/callbacks/" + id + "/deliveries", auth).status(),
                    "not a member of that account");
        }
    }

    @Test
    void operatorsListAndRedeliverFromTheCli() {
        long id = f.verified("invoice", receiver).id();
        receiver.clear();
        f.publish("invoice.create", 5);
        receiver.await(1);
        Deliveries.await("delivered", () -> Deliveries.only(server.services(), id).state() == DeliveryState.DELIVERED);
        long deliveryId = Deliveries.only(server.services(), id).id();
        var settings = server.services().settings();
        String[] db = {"--db", settings.get(Setting.DB_URL), "--set", "db.user=" + settings.get(Setting.DB_USER),
                "--set", "secrets.key=" + settings.get(Setting.SECRETS_KEY)};

        String listed = cli(concat(new String[] {"deliveries", "list", "--callback", Long.toString(id), "--json"}, db));
        assertTrue(listed.contains("\"state\":\"delivered\""), listed);
        assertTrue(listed.contains("\"status_code\":200"), listed);

        String again = cli(concat(new String[] {"deliveries", "redeliver", Long.toString(deliveryId), "--json"}, db));
        assertTrue(again.contains("\"state\":\"pending\""), again);
        server.clock.advance(java.time.Duration.ofMinutes(1));   // the CLI stamps the real time; the test clock stands still
        var both = receiver.await(2);
        assertEquals(both.get(0).header("X-Service-Event-Id"), both.get(1).header("X-Service-Event-Id"), "same message id, so receivers can de-duplicate");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        assertEquals(0, exit, out + " " + err);
        return out.toString();
    }
}
