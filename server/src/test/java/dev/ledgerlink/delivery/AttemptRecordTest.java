package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import org.junit.jupiter.api.Test;

class AttemptRecordTest {
    private static final dev.ledgerlink.tracing.TraceHeaders TRACE =
            dev.ledgerlink.tracing.TraceHeaders.received("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null);

    @Test
    void aVerificationRequestIsRecordedWithoutItsCode() {
        ClaimedDelivery d = new ClaimedDelivery(7, 3, DeliveryKind.VERIFICATION, 0, null, null, 0, null, 0,
                "https://example.com/hook", "sealed", "ACCT1", 11, State.UNVERIFIED, null);
        WebhookRequest r = WebhookRequest.build(d, "the-secret-code", 1_800_000_000L, "ua", TRACE);
        assertTrue(r.body().contains("verifier=the-secret-code"));
        assertEquals("name=callback.verify&object_id=3&verifier=%5Bredacted%5D&account_id=ACCT1&user_id=11", r.recordedBody());
        assertFalse(AttemptRecord.requestHeaders(r.headers()).contains("the-secret-code"));
    }

    @Test
    void aNotificationIsRecordedAsSent() {
        ClaimedDelivery d = new ClaimedDelivery(8, 3, DeliveryKind.EVENT, 0, 5L, "invoice.create", 42, "ACCT1", 11,
                "https://example.com/hook", "sealed", "ACCT1", 11, State.VERIFIED, Instant.EPOCH);
        WebhookRequest r = WebhookRequest.build(d, "code", 1_800_000_000L, "ua", TRACE);
        assertEquals(r.body(), r.recordedBody());
        String headers = AttemptRecord.requestHeaders(r.headers());
        assertTrue(headers.startsWith("Content-Type: application/x-www-form-urlencoded\nUser-Agent: ua\nX-Service-Hmac-SHA256: "), headers);
        assertTrue(headers.contains("\nwebhook-id: msg_8\n"), headers);
        assertTrue(headers.endsWith("\ntraceparent: " + TRACE.traceparent() + "\n"), "the trace context is sent and recorded with the request: " + headers);
    }

    @Test
    void responseHeadersAreSortedLinesAndEveryTextIsCappedAndFreeOfNul() {
        assertEquals("b: 1\nContent-Type: text/plain\nx-many: a\nx-many: b\n",
                AttemptRecord.headers(Map.of("x-many", List.of("a", "b"), "Content-Type", List.of("text/plain"), "b", List.of("1"))));
        assertEquals(AttemptRecord.MAX_HEADERS, AttemptRecord.headers(Map.of("x", List.of("y".repeat(10_000)))).length());
        assertEquals("a\uFFFDb", AttemptRecord.text("a\0b", 10));
        assertEquals(4096, AttemptRecord.text("z".repeat(5000), AttemptRecord.MAX_RESPONSE_BODY).length());
        assertEquals(null, AttemptRecord.text(null, 5));
    }
}
