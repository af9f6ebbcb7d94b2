package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.Deliveries.await;
import static dev.ledgerlink.delivery.Deliveries.only;
import static dev.ledgerlink.delivery.Deliveries.publish;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The engine against real receivers on loopback, with a shortened retry schedule. */
class DeliveryEngineTest {

    private static TestServer server(String schedule, String timeout, String disableAfter) {
        return TestServer.start(s -> s
                .set(Setting.DELIVERY_RETRY_SCHEDULE, schedule)
                .set(Setting.DELIVERY_TIMEOUT, timeout)
                .set(Setting.DELIVERY_DISABLE_AFTER, disableAfter)
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
    }

    @Test
    void aNotificationIsTheFourParametersSignedTheWayAPythonReceiverChecks() throws Exception {
        try (TestServer server = server("PT0.2S", "PT10S", "P5D"); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            String code = "c\u00f6d\u00e9-\ud83d\ude00-\"q\"\\";
            long id = f.callback("invoice", receiver.uri(), code, true);
            var event = publish(server.services(), f, "invoice.create", 42);

            Receiver.Request r = receiver.await(1).getFirst();
            assertEquals("name=invoice.create&object_id=42&account_id=" + f.account.accountId() + "&user_id=" + f.user.id(), r.body());
            assertEquals(pythonReceiverSignature(code, r.body()), r.header(ServiceSignature.HEADER));
            String messageId = r.header("X-Service-Event-Id");
            assertEquals(messageId, r.header(StandardWebhooks.ID));
            assertTrue(StandardWebhooks.verify(code, messageId, r.header(StandardWebhooks.TIMESTAMP), r.body(),
                    r.header(StandardWebhooks.SIGNATURE), Instant.ofEpochSecond(Long.parseLong(r.header(StandardWebhooks.TIMESTAMP))), Duration.ofMinutes(5)));
            assertEquals(1, event.deliveries());
            await("delivered is recorded", () -> only(server.services(), id).state().equals("delivered"));
        }
    }

    @Test
    void aVerificationWithANonAsciiCodeIsSignedAsPythonsJsonDumpsWritesIt() throws Exception {
        try (TestServer server = server("PT0.2S", "PT10S", "P5D"); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            String code = "\u65e5\u672c-\u00e9\u00e8-\ud83c\udf08-\n\t-</>";
            long id = f.callback("client", receiver.uri(), code, false);
            server.services().deliveries().enqueueVerification(id);
            Receiver.Request r = receiver.await(1).getFirst();
            assertEquals(code, FormParams.parse(r.body()).get("verifier"));
            assertEquals(pythonReceiverSignature(code, r.body()), r.header(ServiceSignature.HEADER));
        }
    }

    @Test
    void failedAttemptsAreRetriedWithTheSameMessageIdUntilOneSucceeds() {
        try (TestServer server = server("PT0.2S,PT0.2S,PT0.2S", "PT10S", "P5D"); Receiver receiver = new Receiver();
             Ticker ignored = new Ticker(server.clock)) {
            var f = new CallbackFixture(server.services());
            long id = f.callback("invoice.create", receiver.uri(), "code", true);
            AtomicInteger calls = new AtomicInteger();
            receiver.answer(r -> Receiver.Answer.of(switch (calls.incrementAndGet()) {
                case 1 -> 500;
                case 2 -> 302;
                default -> 204;
            }));
            publish(server.services(), f, "invoice.create", 7);
            var requests = receiver.await(3);
            assertEquals(1, requests.stream().map(r -> r.header("X-Service-Event-Id")).distinct().count());
            await("delivered", () -> only(server.services(), id).state().equals("delivered"));
            DeliveryRecord d = only(server.services(), id);
            assertEquals(3, d.attempts().size());
            assertEquals(500, d.attempts().get(0).statusCode());
            assertEquals(302, d.attempts().get(1).statusCode());
            assertEquals(204, d.attempts().get(2).statusCode());
            assertNull(failingSince(server, id), "a success ends the run of failures");
        }
    }

    @Test
    void serverErrorsRedirectsTimeoutsAndRefusedConnectionsAreRetriedThenDropped() {
        try (TestServer server = server("PT0.2S,PT0.2S", "PT1S", "P5D"); Ticker ignored = new Ticker(server.clock);
             Receiver failing = new Receiver(); Receiver redirecting = new Receiver(); Receiver slow = new Receiver()) {
            failing.answer(r -> Receiver.Answer.of(500));
            redirecting.answer(r -> new Receiver.Answer(301, Map.of("Location", failing.uri()), Duration.ZERO));
            slow.answer(r -> new Receiver.Answer(200, Map.of(), Duration.ofSeconds(3)));
            var f = new CallbackFixture(server.services());
            long c500 = f.callback("invoice", failing.uri(), "a", true);
            long c301 = f.callback("invoice", redirecting.uri(), "b", true);
            long cSlow = f.callback("invoice", slow.uri(), "c", true);
            long cRefused = f.callback("invoice", "http://127.0.0.1:" + Deliveries.freePort() + "/hook", "d", true);
            publish(server.services(), f, "invoice.update", 1);

            for (long id : new long[] {c500, c301, cSlow, cRefused}) {
                await("callback " + id + " dropped", () -> only(server.services(), id).state().equals("dropped"));
                DeliveryRecord d = only(server.services(), id);
                assertEquals(3, d.attempts().size(), "three attempts: the first and two retries");
                assertTrue(d.dropReason().contains("3 attempts"), d.dropReason());
            }
            assertEquals(500, only(server.services(), c500).attempts().getFirst().statusCode());
            assertEquals(301, only(server.services(), c301).attempts().getFirst().statusCode());
            assertEquals(0, failing.requests.stream().filter(r -> r.header("X-Service-Event-Id").equals("msg_" + only(server.services(), c301).id())).count(),
                    "the redirect is not followed");
            assertNull(only(server.services(), cSlow).attempts().getFirst().statusCode());
            assertTrue(only(server.services(), cSlow).attempts().getFirst().error().contains("timed out"));
            assertTrue(only(server.services(), cRefused).attempts().getFirst().error().contains("refused"),
                    only(server.services(), cRefused).attempts().getFirst().error());
            assertNotNull(failingSince(server, c500));
        }
    }

    @Test
    void aCallbackFailingForTheWholeWindowIsDisabledAndResendReenablesIt() {
        try (TestServer server = server("PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S,PT0.2S", "PT10S", "PT0.5S");
             Ticker ignored = new Ticker(server.clock); Receiver receiver = new Receiver()) {
            receiver.answer(r -> Receiver.Answer.of(503));
            var f = new CallbackFixture(server.services());
            long id = f.callback("invoice", receiver.uri(), "code", true);
            publish(server.services(), f, "invoice.create", 1);
            await("disabled", () -> f.disabled(id));
            DeliveryRecord d = only(server.services(), id);
            await("dropped", () -> only(server.services(), id).state().equals("dropped"));
            assertTrue(only(server.services(), id).dropReason().contains("disabled"), only(server.services(), id).dropReason());
            assertTrue(d.attempts().size() < 9, "dropped by the disable, before the schedule ran out");
            assertEquals(0, publish(server.services(), f, "invoice.create", 2).deliveries(), "a disabled callback gets nothing");

            receiver.answer(r -> Receiver.Answer.of(200));
            f.resend(id, "new-code");   // what PUT callback.resend does: enabled again, unverified, code re-sent
            receiver.await(1, r -> r.body().contains("callback.verify"));
            assertFalse(f.disabled(id));
            f.setVerified(id, true);
            long next = publish(server.services(), f, "invoice.create", 3).id();
            Receiver.Request r = receiver.await(1, q -> q.body().contains("object_id=3")).getFirst();
            assertTrue(ServiceSignature.verify("new-code", r.body(), r.header(ServiceSignature.HEADER)));
            assertTrue(next > 0);
        }
    }

    @Test
    void aHangingEndpointDoesNotHoldUpAnotherEndpointsDeliveries() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (TestServer server = TestServer.start(s -> s.set(Setting.DELIVERY_CONCURRENCY, "8")
                .set(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY, "2")   // what the engine's quarter-of-the-total cap gives
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S").set(Setting.DELIVERY_TIMEOUT, "PT60S").set(Setting.DELIVERY_LEASE, "PT120S"));
             Receiver hanging = new Receiver(); Receiver healthy = new Receiver()) {
            hanging.answer(r -> answerAfter(release));
            var f = new CallbackFixture(server.services());
            f.callback("invoice", hanging.uri(), "h", true);
            f.callback("client", healthy.uri(), "ok", true);
            for (int i = 1; i <= 30; i++) publish(server.services(), f, "invoice.create", i);
            hanging.await(2);
            for (int i = 1; i <= 30; i++) publish(server.services(), f, "client.create", i);

            healthy.await(30);
            assertTrue(hanging.requests.size() <= 2, "the hanging endpoint holds at most its share (2 of 8): " + hanging.requests.size());
            release.countDown();
            hanging.await(30);
        } finally {
            release.countDown();
        }
    }

    @Test
    void manyHangingEndpointsTogetherStillLeaveSlotsForHealthyOnes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // 16 slots, 2 per callback: four hanging endpoints hold 8; a quarter each (4) would hold all 16.
        try (TestServer server = TestServer.start(s -> s.set(Setting.DELIVERY_CONCURRENCY, "16")
                .set(Setting.DELIVERY_PER_CALLBACK_CONCURRENCY, "2")
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S").set(Setting.DELIVERY_TIMEOUT, "PT60S").set(Setting.DELIVERY_LEASE, "PT120S"));
             Receiver hanging = new Receiver(); Receiver healthy = new Receiver()) {
            hanging.answer(r -> answerAfter(release));
            var f = new CallbackFixture(server.services());
            for (int i = 0; i < 4; i++) f.callback("invoice", hanging.uri() + "?h" + i, "h" + i, true);
            f.callback("client", healthy.uri(), "ok", true);
            for (int i = 1; i <= 20; i++) publish(server.services(), f, "invoice.create", i);
            hanging.await(8);
            for (int i = 1; i <= 30; i++) publish(server.services(), f, "client.create", i);

            healthy.await(30);
            assertTrue(hanging.requests.size() <= 8, "each hanging endpoint holds at most 2 slots: " + hanging.requests.size());
            release.countDown();
        } finally {
            release.countDown();
        }
    }

    @Test
    void deliveriesOfAnUnverifiedOrDeletedCallbackAreNotSent() {
        try (TestServer server = server("PT0.2S", "PT10S", "P5D"); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            receiver.answer(r -> Receiver.Answer.of(500));
            long unverified = f.callback("invoice", receiver.uri() + "?u", "a", true);
            long deleted = f.callback("invoice", receiver.uri() + "?d", "b", true);
            publish(server.services(), f, "invoice.create", 5);
            receiver.await(2);
            f.setVerified(unverified, false);
            dev.ledgerlink.store.Deadlocks.retry(() -> server.services().database().jdbi()
                    .useHandle(h -> h.execute("delete from callbacks where id = ?", deleted)));
            try (Ticker ignored = new Ticker(server.clock)) {
                await("dropped at send time", () -> only(server.services(), unverified).state().equals("dropped"));
            }
            assertTrue(only(server.services(), unverified).dropReason().contains("verified"));
            assertEquals(1, only(server.services(), unverified).attempts().size());
            assertEquals(0L, (long) server.services().database().jdbi().withHandle(h ->
                    h.createQuery("select count(*) from deliveries where callback_id = :id").bind("id", deleted).mapTo(Long.class).one()));
        }
    }

    @Test
    void outsideDevModeAPrivateTargetIsRefusedAtSendTimeAndRecordedAsAFailedAttempt() {
        try (TestServer server = TestServer.start(s -> s.set(Setting.DEV, "false").set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S")
                .set(Setting.OPERATOR_KEY, "k")); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            long id = f.callback("invoice", receiver.uri(), "code", true);   // as if its address had changed after registration
            publish(server.services(), f, "invoice.create", 1);
            await("an attempt is recorded", () -> !only(server.services(), id).attempts().isEmpty());
            DeliveryRecord.Attempt a = only(server.services(), id).attempts().getFirst();
            assertNull(a.statusCode());
            assertTrue(a.error().contains("non-public address"), a.error());
            assertTrue(receiver.requests.isEmpty());
        }
    }

    @Test
    void outcomesAreCountedInTheMetrics() {
        try (TestServer server = server("PT0.2S", "PT10S", "P5D"); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            f.callback("invoice", receiver.uri(), "code", true);
            publish(server.services(), f, "invoice.create", 1);
            receiver.await(1);
            await("counted", () -> server.http.get("/metrics").body().contains("ledgerlink_deliveries_delivered_total 1.0"));
            String metrics = server.http.get("/metrics").body();
            for (String name : new String[] {"ledgerlink_deliveries_failed_total", "ledgerlink_deliveries_dropped_total",
                    "ledgerlink_callbacks_disabled_total", "ledgerlink_deliveries_queue_depth", "ledgerlink_delivery_attempt_seconds_count"}) {
                assertTrue(metrics.contains(name), name);
            }
        }
    }

    private static java.time.Instant failingSince(TestServer server, long id) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery("select failing_since from callbacks where id = :id")
                .bind("id", id).mapTo(java.time.Instant.class).one());
    }

    /** What a Python receiver computes from the raw body: parse_qsl, json.dumps(dict), HMAC-SHA256, base64. */
    static String pythonReceiverSignature(String code, String body) throws IOException, InterruptedException {
        String program = """
                import sys, json, hmac, hashlib, base64, urllib.parse
                code = bytes.fromhex(sys.argv[1]).decode('utf-8')
                body = bytes.fromhex(sys.argv[2]).decode('utf-8')
                msg = json.dumps(dict(urllib.parse.parse_qsl(body, keep_blank_values=True)))
                print(base64.b64encode(hmac.new(code.encode('utf-8'), msg.encode('utf-8'), hashlib.sha256).digest()).decode())
                """;
        Process p = new ProcessBuilder("python3", "-c", program,
                java.util.HexFormat.of().formatHex(code.getBytes(StandardCharsets.UTF_8)),
                java.util.HexFormat.of().formatHex(body.getBytes(StandardCharsets.UTF_8))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    /** An endpoint that hangs until the test releases it, then answers 200. */
    private static Receiver.Answer answerAfter(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Receiver.Answer.of(200);
    }
}
