package dev.ledgerlink.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.oauth.OAuthFlows;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.OtlpReceiver;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Traces with tracing.otlp-endpoint set, as a collector receives them: a real OTLP/HTTP receiver on
 * loopback (its address is only known at run time, so the server is started here rather than by the
 * extension), real HTTP to the server, a real webhook receiver.
 */
class TracingTest {
    private static final String KEY = "test-operator-key-tracing-0123456789";
    /** The publisher's trace: what a calling service sends as traceparent. */
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    static OtlpReceiver collector;
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @BeforeAll
    static void start() {
        collector = new OtlpReceiver();
        server = TestServer.start(s -> s
                .set(Setting.TRACING_OTLP_ENDPOINT, collector.endpoint())
                .set(Setting.TRACING_EXPORT_INTERVAL, "PT0.2S")
                .set(Setting.OPERATOR_KEY, KEY)
                .set(Setting.DELIVERY_RETRY_SCHEDULE, "PT0.2S,PT0.2S")
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
    }

    @AfterAll
    static void stop() {
        server.close();
        collector.close();
    }

    @BeforeEach
    void fixtures() {
        f = Fixtures.create(server);
        receiver = new Receiver();
    }

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void anHttpRequestIsAServerSpanNamedAfterItsRouteInTheCallersTrace() {
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        TestHttp.Response r = server.http.get("/.well-known/oauth-authorization-server", "traceparent", "00-" + traceId + "-b7ad6b7169203331-01");
        assertEquals(200, r.status(), r.body());
        OtlpReceiver.Span span = collector.await("the discovery request's span", s -> s.traceId().equals(traceId));
        assertEquals("GET /.well-known/oauth-authorization-server", span.name());
        assertEquals("SPAN_KIND_SERVER", span.kind());
        assertEquals("b7ad6b7169203331", span.parentSpanId(), "a child of the caller's span");
        assertEquals("200", span.attribute("http.response.status_code"));
        assertEquals("/.well-known/oauth-authorization-server", span.attribute("http.route"));
        assertEquals(r.header("X-Request-Id"), span.attribute("ledgerlink.request_id"));
        assertEquals("ledgerlink", span.resource().get("service.name"));
    }

    @Test
    void aTracedRequestsLogLineCarriesItsTraceId() {
        String traceId = "5b8aa5a2d2c872e8321cf37308d69df2";
        var web = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.ledgerlink.web.WebServer");
        var level = web.getLevel();
        java.util.Queue<String> lines = new java.util.concurrent.ConcurrentLinkedQueue<>();
        var appender = new ch.qos.logback.core.AppenderBase<ch.qos.logback.classic.spi.ILoggingEvent>() {
            @Override
            protected void append(ch.qos.logback.classic.spi.ILoggingEvent e) {
                // the MDC read here, on the thread that logged
                lines.add(e.getMDCPropertyMap().get("trace_id") + " " + e.getFormattedMessage());
            }
        };
        appender.setContext(web.getLoggerContext());
        appender.start();
        web.addAppender(appender);
        web.setLevel(ch.qos.logback.classic.Level.DEBUG);
        try {
            server.http.get("/.well-known/oauth-authorization-server", "traceparent", "00-" + traceId + "-b7ad6b7169203331-01");
            dev.ledgerlink.testing.Eventually.await("the request's log line", () -> lines.stream()
                    .anyMatch(l -> l.startsWith(traceId + " GET /.well-known/oauth-authorization-server -> 200")));
        } finally {
            web.setLevel(level);
            web.detachAppender(appender);
        }
    }

    @Test
    void tokenGrantsAreSpansWithTheirTypeClientAndOutcomeAndNoTokenCodeOrSecretAnywhere() {
        String code = OAuthFlows.code(server, f);
        TestHttp.Response issued = OAuthFlows.exchange(server, f, code);
        assertEquals(200, issued.status(), issued.body());
        String access = issued.json().get("access_token").asText();
        String refresh = issued.json().get("refresh_token").asText();
        TestHttp.Response refreshed = OAuthFlows.refresh(server, f, refresh);
        assertEquals(200, refreshed.status(), refreshed.body());
        TestHttp.Response replayedCode = OAuthFlows.exchange(server, f, code);
        assertEquals(400, replayedCode.status(), replayedCode.body());

        String client = f.app().clientId();
        List<OtlpReceiver.Span> grants = collector.awaitAll("this client's three grants", 3,
                s -> s.name().equals("oauth.token_grant") && client.equals(s.attribute("oauth.client_id")));
        assertEquals(List.of("authorization_code issued", "refresh_token issued", "authorization_code invalid_grant"),
                grants.stream().map(s -> s.attribute("oauth.grant_type") + " " + s.attribute("ledgerlink.outcome")).toList());
        for (OtlpReceiver.Span grant : grants) {
            OtlpReceiver.Span request = collector.await("the grant's request", s -> s.spanId().equals(grant.parentSpanId()));
            assertEquals("POST /auth/oauth/token", request.name(), "a grant is a child of its request's span");
        }

        List<String> secrets = new ArrayList<>(List.of(code, access, refresh, f.clientSecret(),
                refreshed.json().get("access_token").asText(), refreshed.json().get("refresh_token").asText()));
        for (OtlpReceiver.Span s : collector.spans()) {
            for (var a : s.attributes().entrySet()) {
                for (String secret : secrets) {
                    assertFalse(a.getValue().contains(secret), "span " + s.name() + " attribute " + a.getKey() + " holds a code, token or secret");
                }
            }
        }
    }

    @Test
    void aPublishIsASpanOfTheRequestInThePublishersTraceWithTheEventAndAccount() {
        TestHttp.Response r = publish(41, TRACEPARENT);
        assertEquals(202, r.status(), r.body());
        long eventId = r.json().get("event").get("id").asLong();
        OtlpReceiver.Span publish = collector.await("the publish's span", s -> s.name().equals("events.publish")
                && Long.toString(eventId).equals(s.attribute("ledgerlink.event.id")));
        assertEquals(TRACE_ID, publish.traceId());
        assertEquals("SPAN_KIND_PRODUCER", publish.kind());
        assertEquals(f.account().accountId(), publish.attribute("ledgerlink.account_id"));
        assertEquals("invoice.create", publish.attribute("ledgerlink.event.name"));
        OtlpReceiver.Span request = collector.await("the publish's request", s -> s.spanId().equals(publish.parentSpanId()));
        assertEquals("POST /internal/v1/events", request.name());
        assertEquals(CALLER_SPAN, request.parentSpanId(), "the request is a child of the publisher's span");
    }

    @Test
    void aDeliveryAttemptContinuesThePublishersTraceUpToTheReceiver() {
        long callbackId = f.verified("invoice", receiver).id();
        receiver.clear();
        publish(42, TRACEPARENT);
        Receiver.Request webhook = receiver.await(1).getFirst();
        String[] sent = webhook.header("traceparent").split("-");
        assertEquals(TRACE_ID, sent[1], "the receiver is in the publisher's trace");

        OtlpReceiver.Span attempt = collector.await("the attempt's span", s -> s.spanId().equals(sent[2]));
        assertEquals("webhook.attempt", attempt.name());
        assertEquals("SPAN_KIND_CLIENT", attempt.kind());
        assertEquals(Long.toString(callbackId), attempt.attribute("ledgerlink.callback.id"));
        assertEquals("1", attempt.attribute("ledgerlink.delivery.attempt"));
        assertEquals("200", attempt.attribute("http.response.status_code"));
        assertTrue(Long.parseLong(attempt.attribute("ledgerlink.delivery.duration_ms")) >= 0);
        OtlpReceiver.Span publish = collector.await("the publish's span", s -> s.spanId().equals(attempt.parentSpanId()));
        assertEquals("events.publish", publish.name(), "the attempt is a child of the publish");
    }

    @Test
    void aRetryWaitsInTheDatabaseAndStillContinuesThePublishersTrace() {
        try (var ticking = server.clock.followRealTime()) {
            retryKeepsTheTrace();
        }
    }

    private void retryKeepsTheTrace() {
        long callbackId = f.verified("invoice", receiver).id();
        receiver.clear();
        AtomicInteger calls = new AtomicInteger();
        receiver.answer(r -> Receiver.Answer.of(calls.incrementAndGet() == 1 ? 503 : 200));
        publish(43, TRACEPARENT);
        List<Receiver.Request> webhooks = receiver.await(2);
        String first = webhooks.get(0).header("traceparent");
        String retry = webhooks.get(1).header("traceparent");
        assertEquals(TRACE_ID, first.split("-")[1]);
        assertEquals(TRACE_ID, retry.split("-")[1], "the retry, claimed from the database, keeps the publisher's trace");
        assertNotEquals(first, retry, "each attempt is a span of its own");

        OtlpReceiver.Span failed = collector.await("the first attempt", s -> s.spanId().equals(first.split("-")[2]));
        OtlpReceiver.Span succeeded = collector.await("the retry", s -> s.spanId().equals(retry.split("-")[2]));
        assertEquals(List.of("1", "503", "true"), List.of(failed.attribute("ledgerlink.delivery.attempt"),
                failed.attribute("http.response.status_code"), Boolean.toString(failed.error())));
        assertEquals(List.of("2", "200", "false"), List.of(succeeded.attribute("ledgerlink.delivery.attempt"),
                succeeded.attribute("http.response.status_code"), Boolean.toString(succeeded.error())));
        assertEquals(failed.parentSpanId(), succeeded.parentSpanId(), "both attempts are children of the one publish");
        assertEquals(Long.toString(callbackId), succeeded.attribute("ledgerlink.callback.id"));
    }

    @Test
    void aVerificationRequestStartsATraceOfItsOwn() {
        long callbackId = f.verified("invoice", receiver).id();
        Receiver.Request verification = receiver.requests.stream().filter(r -> "callback.verify".equals(r.param("name"))).findFirst().orElseThrow();
        String[] sent = verification.header("traceparent").split("-");
        OtlpReceiver.Span attempt = collector.await("the verification attempt", s -> s.spanId().equals(sent[2]));
        assertEquals("", attempt.parentSpanId(), "a root span: no publish came before it");
        assertEquals(Long.toString(callbackId), attempt.attribute("ledgerlink.callback.id"));
        assertEquals(sent[1], attempt.traceId());
    }

    /** The SDK's own complaints (here: no collector listening) reach the server's log, as its other lines do. */
    @Test
    void aCollectorThatCannotBeReachedIsReportedInTheServersLog() throws Exception {
        int closedPort;
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + closedPort;
        try (var logs = new dev.ledgerlink.testing.LogLines();
             TestServer unreachable = TestServer.start(s -> s.set(Setting.TRACING_OTLP_ENDPOINT, endpoint)
                     .set(Setting.TRACING_EXPORT_INTERVAL, "PT0.2S"))) {
            assertEquals(200, unreachable.http.get("/.well-known/oauth-authorization-server").status());
            dev.ledgerlink.testing.Eventually.await("the failed export in the log", () -> !logs.matching(
                    l -> l.logger().startsWith("io.opentelemetry") && l.message().contains("export")).isEmpty());
        }
    }

    private TestHttp.Response publish(long objectId, String traceparent) {
        String body = "{\"name\": \"invoice.create\", \"account_id\": \"" + f.account().accountId() + "\", \"object_id\": " + objectId
                + ", \"user_id\": " + f.user().id() + "}";
        HttpRequest.Builder b = server.http.request("/internal/v1/events").header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEY).header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        return server.http.send(b);
    }
}
