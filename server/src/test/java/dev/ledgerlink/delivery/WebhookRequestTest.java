package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.PythonReceiverSignatureTest.pythonReceiverSignature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import java.time.Duration;
import java.time.Instant;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import org.junit.jupiter.api.Test;
import dev.ledgerlink.testing.Heavy;

/**
 * The bytes of one attempt, pure: codes the service never issues (it issues URL-safe ones) still
 * sign the way a Python receiver checks, so the signing holds for any code. The engine tests send
 * real requests with the codes of real handshakes.
 */
@Heavy
class WebhookRequestTest {
    private static final dev.ledgerlink.tracing.TraceHeaders TRACE =
            dev.ledgerlink.tracing.TraceHeaders.received("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null);
    private static final long TIMESTAMP = 1_795_000_000L;

    private static ClaimedDelivery delivery(DeliveryKind kind, long callbackId) {
        return new ClaimedDelivery(9, callbackId, kind, 0, kind == DeliveryKind.VERIFICATION ? null : 3L, "invoice.create", 42,
                "6BApk", 7, "https://app.example.com/hook", "sealed", "6BApk", 7, State.VERIFIED, null);
    }

    @Test
    void aNotificationSignedWithANonAsciiCodeIsCheckedByAPythonReceiverAndStandardWebhooks() throws Exception {
        String code = "c\u00f6d\u00e9-\ud83d\ude00-\"q\"\\";
        WebhookRequest r = WebhookRequest.build(delivery(DeliveryKind.EVENT, 5), code, TIMESTAMP, "ledgerlink-webhooks/test", TRACE);
        assertEquals("name=invoice.create&object_id=42&account_id=6BApk&user_id=7", r.body());
        assertEquals(pythonReceiverSignature(code, r.body()), r.headers().get(ServiceSignature.HEADER));
        assertEquals("msg_9", r.headers().get("X-Service-Event-Id"));
        assertEquals("msg_9", r.headers().get(StandardWebhooks.ID));
        assertTrue(StandardWebhooks.verify(code, "msg_9", Long.toString(TIMESTAMP), r.body(), r.headers().get(StandardWebhooks.SIGNATURE),
                Instant.ofEpochSecond(TIMESTAMP), Duration.ofMinutes(5)));
    }

    @Test
    void aVerificationWithANonAsciiCodeIsSignedAsPythonsJsonDumpsWritesItAndRecordedRedacted() throws Exception {
        String code = "\u65e5\u672c-\u00e9\u00e8-\ud83c\udf08-\n\t-</>";
        WebhookRequest r = WebhookRequest.build(delivery(DeliveryKind.VERIFICATION, 5), code, TIMESTAMP, "ledgerlink-webhooks/test", TRACE);
        assertEquals(code, FormParams.parse(r.body()).get("verifier"));
        assertEquals(pythonReceiverSignature(code, r.body()), r.headers().get(ServiceSignature.HEADER));
        assertEquals(AttemptRecord.REDACTED, FormParams.parse(r.recordedBody()).get("verifier"));
    }
}
