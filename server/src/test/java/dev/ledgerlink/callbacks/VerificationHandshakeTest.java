package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The handshake end to end: the service POSTs the code to a real receiver on loopback, the receiver
 * reads it and PUTs it back over HTTP, as an integrating application does.
 */
@LedgerlinkTest
class VerificationHandshakeTest {
    TestServer server;
    Receiver receiver;
    Fixtures f;
    CallbackApi api;

    @BeforeEach
    void start() {
        api = CallbackApi.of(f, "user:invoices:read");
    }

    @Test
    void theReceiverGetsTheCodeSignedAndVerifiesByPuttingItBack() throws Exception {
        CompletableFuture<Integer> putBack = new CompletableFuture<>();
        receiver.onVerification(r -> putBack.complete(api.verify(Long.parseLong(r.param("object_id")), r.param("verifier")).status()));

        long id = api.registerId("invoice.create", receiver.uri());
        Receiver.Request request = receiver.next("callback.verify");

        assertEquals(List.of("name", "object_id", "verifier", "account_id", "user_id"), List.copyOf(request.params().keySet()));
        assertEquals(Long.toString(id), request.param("object_id"));
        assertEquals(f.account().accountId(), request.param("account_id"));
        assertEquals(Long.toString(f.user().id()), request.param("user_id"));
        assertTrue(request.param("verifier").matches("[A-Za-z0-9_-]{43}"), "256-bit URL-safe code");
        assertTrue(ServiceSignature.verify(request.param("verifier"), request.body(), request.signature()), "signed with the code");

        assertEquals(200, putBack.get(30, TimeUnit.SECONDS));
        assertTrue(CallbackApi.record(api.get(id)).get("verified").asBoolean());
    }

    @Test
    void resendSendsAFreshCodeAndOnlyThatOneVerifies() {
        long id = api.registerId("invoice", receiver.uri());
        String first = receiver.next("callback.verify").param("verifier");
        assertEquals(200, api.verify(id, first).status());

        var resent = api.resend(id);
        assertEquals(200, resent.status());
        assertFalse(CallbackApi.record(resent).get("verified").asBoolean());
        Receiver.Request again = receiver.next("callback.verify");
        String second = again.param("verifier");
        assertNotEquals(first, second);
        assertTrue(ServiceSignature.verify(second, again.body(), again.signature()));

        assertEquals(422, api.verify(id, first).status(), "the old code stops working");
        assertFalse(CallbackApi.record(api.get(id)).get("verified").asBoolean());
        assertTrue(CallbackApi.record(api.verify(id, second)).get("verified").asBoolean());
    }

    @Test
    void aNewUriGetsItsOwnVerificationRequest() {
        try (Receiver other = new Receiver()) {
            long id = api.registerId("invoice", receiver.uri());
            assertEquals(200, api.verify(id, receiver.next("callback.verify").param("verifier")).status());
            var moved = api.put(id, "{\"callback\": {\"uri\": \"" + other.uri() + "\"}}");
            assertFalse(CallbackApi.record(moved).get("verified").asBoolean());
            String code = other.next("callback.verify").param("verifier");
            assertTrue(CallbackApi.record(api.verify(id, code)).get("verified").asBoolean());
        }
    }
}
