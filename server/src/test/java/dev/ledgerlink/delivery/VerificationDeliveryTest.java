package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The verification request as the receiver gets it, for a callback registered through the service. */
@LedgerlinkTest
class VerificationDeliveryTest {
    Fixtures f;
    Receiver receiver;

    @Test
    void aRegisteredCallbacksVerificationIsSentWithItsCodeSignedByIt() {
        long id = f.register("invoice", receiver.uri()).id();

        Receiver.Request r = receiver.await(1).getFirst();
        String code = r.param("verifier");
        assertEquals("name=callback.verify&object_id=" + id + "&verifier=" + code + "&account_id=" + f.account().accountId()
                + "&user_id=" + f.user().id(), r.body());
        assertEquals("application/x-www-form-urlencoded", r.header("Content-Type"));
        assertTrue(r.header("User-Agent").startsWith("ledgerlink-webhooks/"));
        assertTrue(ServiceSignature.verify(code, r.body(), r.header("X-Service-Hmac-SHA256")));
        assertEquals(FormParams.VERIFY_EVENT, FormParams.parse(r.body()).get("name"));
        assertTrue(f.verify(id, code).verified(), "the code sent is the callback's");
    }

    @Test
    void aResentCodeIsReadAtSendTime(TestServer server) {
        receiver.answer(r -> Receiver.Answer.of(500));   // the first request fails and waits for its retry
        long id = f.register("invoice.create", receiver.uri()).id();
        Receiver.Request first = Fixtures.verificationRequest(id, receiver);
        Deliveries.await("the failed attempt is recorded", () -> server.services().deliveryReads().history(null, id, 1, 10).deliveries()
                .stream().anyMatch(d -> d.state() == DeliveryState.PENDING && d.attemptCount() == 1));
        receiver.answer(r -> Receiver.Answer.of(200));
        f.resend(id);
        Receiver.Request fresh = Fixtures.verificationRequest(id, receiver);
        String code = fresh.param("verifier");
        assertNotEquals(first.param("verifier"), code, "a new code");
        assertTrue(ServiceSignature.verify(code, fresh.body(), fresh.header("X-Service-Hmac-SHA256")));

        server.clock.advance(Duration.ofMinutes(2));   // the first request's retry falls due
        Receiver.Request retry;
        do {   // the resend's request may come again too (under load an attempt can time out), in either order
            retry = Fixtures.verificationRequest(id, receiver);
        } while (!first.header("X-Service-Event-Id").equals(retry.header("X-Service-Event-Id")));
        assertEquals(code, FormParams.parse(retry.body()).get("verifier"), "the code is read when the request is sent, not when it was queued");
        assertTrue(ServiceSignature.verify(code, retry.body(), retry.header("X-Service-Hmac-SHA256")));
        assertTrue(f.verify(id, code).verified(), "the new code verifies");
    }
}
