package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import org.junit.jupiter.api.Test;

class VerificationDeliveryTest {

    @Test
    void enqueuedVerificationIsSentWithTheCurrentCodeSignedByIt() {
        try (TestServer server = TestServer.start(); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            long id = f.callback("invoice", receiver.uri(), "code-one", false);

            server.services().deliveries().enqueueVerification(id);

            Receiver.Request r = receiver.await(1).getFirst();
            assertEquals("name=callback.verify&object_id=" + id + "&verifier=code-one&account_id=" + f.account.accountId()
                    + "&user_id=" + f.user.id(), r.body());
            assertEquals("application/x-www-form-urlencoded", r.header("Content-Type"));
            assertTrue(r.header("User-Agent").startsWith("ledgerlink-webhooks/"));
            assertTrue(ServiceSignature.verify("code-one", r.body(), r.header("X-Service-Hmac-SHA256")));
            assertEquals(FormParams.VERIFY_EVENT, FormParams.parse(r.body()).get("name"));
        }
    }

    @Test
    void aResentCodeIsReadAtSendTime() {
        try (TestServer server = TestServer.start(); Receiver receiver = new Receiver()) {
            var f = new CallbackFixture(server.services());
            long id = f.callback("invoice.create", receiver.uri(), "old-code", false);
            f.resend(id, "new-code");
            Receiver.Request r = receiver.await(1).getFirst();
            assertEquals("new-code", FormParams.parse(r.body()).get("verifier"));
            assertTrue(ServiceSignature.verify("new-code", r.body(), r.header("X-Service-Hmac-SHA256")));
        }
    }
}
