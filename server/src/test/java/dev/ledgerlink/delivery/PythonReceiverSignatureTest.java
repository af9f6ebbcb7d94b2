package dev.ledgerlink.delivery;

import static dev.ledgerlink.delivery.Deliveries.await;
import static dev.ledgerlink.delivery.Deliveries.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What the engine sends, checked the way a receiver written from the public documentation in Python
 * checks it: the signature computed by python3 from the raw body (parse_qsl, json.dumps, HMAC). A
 * class of its own because it starts python3 (@Heavy); DeliveryEngineTest checks the rest in-process.
 */
@LedgerlinkTest
@Heavy
@ServerSettings({"delivery.retry-schedule=PT0.2S", "delivery.timeout=PT10S", "delivery.disable-after=P5D", "delivery.poll-interval=PT0.1S"})
class PythonReceiverSignatureTest {
    static TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    void aNotificationIsTheFourParametersSignedTheWayAPythonReceiverChecks() throws Exception {
        var callback = f.verified("invoice", receiver);
        receiver.clear();
        var event = f.publish("invoice.create", 42);

        Receiver.Request r = receiver.await(1).getFirst();
        assertEquals("name=invoice.create&object_id=42&account_id=" + f.account().accountId() + "&user_id=" + f.user().id(), r.body());
        assertEquals(pythonReceiverSignature(callback.code(), r.body()), r.header(ServiceSignature.HEADER));
        String messageId = r.header("X-Service-Event-Id");
        assertEquals(messageId, r.header(StandardWebhooks.ID));
        assertTrue(StandardWebhooks.verify(callback.code(), messageId, r.header(StandardWebhooks.TIMESTAMP), r.body(),
                r.header(StandardWebhooks.SIGNATURE), Instant.ofEpochSecond(Long.parseLong(r.header(StandardWebhooks.TIMESTAMP))), Duration.ofMinutes(5)));
        assertEquals(1, event.deliveries());
        await("delivered is recorded", () -> only(server.services(), callback.id()).state() == DeliveryState.DELIVERED);
    }

    @Test
    void theVerificationRequestCarriesTheCodeSignedAsPythonsJsonDumpsWritesIt() throws Exception {
        var registered = f.register("client", receiver.uri());
        Receiver.Request r = Fixtures.verificationRequest(registered.id(), receiver);
        String code = FormParams.parse(r.body()).get("verifier");
        assertEquals(pythonReceiverSignature(code, r.body()), r.header(ServiceSignature.HEADER));
        assertTrue(server.services().callbacks().verify(f.principal(), f.account().accountId(), registered.id(), code).verified(),
                "the code in the request is the callback's");
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
}
