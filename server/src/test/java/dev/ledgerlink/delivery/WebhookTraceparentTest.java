package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every webhook carries a W3C traceparent, with tracing off (no tracing.otlp-endpoint, as here): the
 * publisher's own when its publish carried one (kept with the event, so a retry, or another server
 * over the same database, sends it too), else a new trace. Tracing on: tracing/TracingTest.
 */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + WebhookTraceparentTest.KEY, "delivery.poll-interval=PT0.1S", "delivery.retry-schedule=PT0.2S,PT0.2S"})
class WebhookTraceparentTest {
    static final String KEY = "test-operator-key-traceparent-0123456789";
    private static final Pattern W3C = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
    private static final String PUBLISHER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String STATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7";
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    void theVerificationRequestCarriesATraceparentOfANewSampledTrace() {
        f.verified("invoice", receiver);
        String traceparent = receiver.requests.stream().filter(r -> "callback.verify".equals(r.param("name"))).findFirst().orElseThrow()
                .header("traceparent");
        assertTrue(W3C.matcher(traceparent).matches(), traceparent);
        assertTrue(traceparent.endsWith("-01"), "sampled: a receiver that follows its caller's decision records its side");
    }

    @Test
    void theReceiverGetsThePublishersTraceparentAndTracestate() {
        f.verified("invoice", receiver);
        receiver.clear();
        assertEquals(202, publish(f, 1, PUBLISHER, STATE).status());
        Receiver.Request webhook = receiver.await(1).getFirst();
        assertEquals(PUBLISHER, webhook.header("traceparent"), "tracing off, the publisher's context is passed on as it came");
        assertEquals(STATE, webhook.header("tracestate"));
        String stored = server.services().database().jdbi().withHandle(h -> h.createQuery(
                "select trace_parent from events where account_id = :a").bind("a", f.account().accountId()).mapTo(String.class).one());
        assertEquals(PUBLISHER, stored, "kept with the event");
    }

    @Test
    void eventsPublishedWithoutOneOrWithAnInvalidOneEachStartANewTrace() {
        f.verified("invoice", receiver);
        receiver.clear();
        assertEquals(202, publish(f, 1, null, null).status());
        assertEquals(202, publish(f, 2, "00-not-a-trace-01", null).status(), "an invalid traceparent is ignored, never refused");
        assertEquals(202, publish(f, 3, "00-00000000000000000000000000000000-00f067aa0ba902b7-01", null).status());
        List<Receiver.Request> webhooks = receiver.await(3);
        List<String> traces = webhooks.stream().map(r -> r.header("traceparent")).toList();
        for (String t : traces) assertTrue(W3C.matcher(t).matches(), t);
        assertEquals(3, traces.stream().map(t -> t.split("-")[1]).distinct().count(), "a new trace each: " + traces);
        for (Receiver.Request r : webhooks) assertNull(r.header("tracestate"));
    }

    @Test
    void aRetryCarriesThePublishersTraceparentToo() {
        try (var ticking = server.clock.followRealTime()) {
            f.verified("invoice", receiver);
            receiver.clear();
            AtomicInteger calls = new AtomicInteger();
            receiver.answer(r -> Receiver.Answer.of(calls.incrementAndGet() == 1 ? 500 : 200));
            publish(f, 1, PUBLISHER, null);
            List<Receiver.Request> webhooks = receiver.await(2);
            assertEquals(List.of(PUBLISHER, PUBLISHER), webhooks.stream().map(r -> r.header("traceparent")).toList());
        }
    }

    /** The attempt after a restart, or by another node over the same database, reads the context from the event. */
    @Test
    void anotherServerOverTheSameDatabaseRetriesInThePublishersTrace() {
        TestDatabases.TestDb db = TestDatabases.fresh();
        String key = SecretBox.newKeyBase64();
        AtomicInteger calls = new AtomicInteger();
        receiver.answer(r -> Receiver.Answer.of("callback.verify".equals(r.param("name")) || calls.incrementAndGet() > 1 ? 200 : 503));
        Fixtures first;
        try (TestServer a = TestServer.start(db, s -> settings(s, key).set(Setting.DELIVERY_RETRY_SCHEDULE, "PT1S"))) {
            first = Fixtures.create(a);
            first.verified("invoice", receiver);
            receiver.clear();
            assertEquals(202, publish(a, first, 7, PUBLISHER, null).status());
            assertEquals(PUBLISHER, receiver.await(1).getFirst().header("traceparent"));
            Eventually.await("the failed attempt is recorded", () -> a.services().database().jdbi().withHandle(h ->
                    h.createQuery("select count(*) from delivery_attempts where status_code = 503").mapTo(Integer.class).one()) == 1);
        }
        try (TestServer b = TestServer.start(db, s -> settings(s, key)); var ticking = b.clock.followRealTime()) {
            List<Receiver.Request> webhooks = receiver.await(2);
            assertEquals(PUBLISHER, webhooks.get(1).header("traceparent"), "the other server's retry");
        }
    }

    /** A process that runs no engine (the CLI) stores the event with its trace context; the server's engine sends it. */
    @Test
    void anEventPublishedByTheCliWithATraceparentIsDeliveredInThatTrace() {
        f.verificationsRecorded(f.verified("invoice", receiver).id());
        receiver.clear();
        var settings = server.services().settings();
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        String[] common = {"events", "publish", "--db", settings.get(Setting.DB_URL), "--set", "db.user=" + settings.get(Setting.DB_USER),
                "--set", "secrets.key=" + settings.get(Setting.SECRETS_KEY), "--account", f.account().accountId(), "--name", "invoice.create",
                "--user-id", Long.toString(f.user().id())};
        int refused = dev.ledgerlink.cli.Main.run(new java.io.PrintWriter(out), new java.io.PrintWriter(err),
                concat(common, "--object-id", "5", "--traceparent", "00-nope-01"));
        assertTrue(refused != 0, "an invalid --traceparent is refused: " + out);
        assertTrue(err.toString().contains("--traceparent must be a W3C traceparent"), err.toString());
        int exit = dev.ledgerlink.cli.Main.run(new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()),
                concat(common, "--object-id", "6", "--traceparent", PUBLISHER));
        assertEquals(0, exit, out.toString());
        // The CLI stamps the real time; the test server's clock stood still since it started (apart from a
        // retry test's ticking): bring it past the real time.
        java.time.Duration behind = java.time.Duration.between(server.clock.instant(), java.time.Instant.now());
        server.clock.advance((behind.isNegative() ? java.time.Duration.ZERO : behind).plusMinutes(1));
        Receiver.Request webhook = receiver.await(1).getFirst();
        assertEquals("6", webhook.param("object_id"));
        assertEquals(PUBLISHER, webhook.header("traceparent"));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static dev.ledgerlink.config.Settings.Builder settings(dev.ledgerlink.config.Settings.Builder s, String key) {
        return s.set(Setting.SECRETS_KEY, key).set(Setting.OPERATOR_KEY, KEY).set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S");
    }

    private static TestHttp.Response publish(Fixtures f, long objectId, String traceparent, String tracestate) {
        return publish(server, f, objectId, traceparent, tracestate);
    }

    private static TestHttp.Response publish(TestServer on, Fixtures f, long objectId, String traceparent, String tracestate) {
        String body = "{\"name\": \"invoice.create\", \"account_id\": \"" + f.account().accountId() + "\", \"object_id\": " + objectId
                + ", \"user_id\": " + f.user().id() + "}";
        HttpRequest.Builder b = on.http.request("/internal/v1/events").header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEY).POST(HttpRequest.BodyPublishers.ofString(body));
        if (traceparent != null) b.header("traceparent", traceparent);
        if (tracestate != null) b.header("tracestate", tracestate);
        return on.http.send(b);
    }
}
