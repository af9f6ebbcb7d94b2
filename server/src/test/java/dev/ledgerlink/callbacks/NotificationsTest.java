package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What verification switches on: events published through the Java API reach a verified callback,
 * signed with its code; an unverified (or re-sent, or deleted) callback gets nothing. Publishing
 * fans out to the callbacks verified at that moment and says how many deliveries it made, so
 * "nothing is delivered" is asserted on that count, never by waiting.
 */
@LedgerlinkTest
class NotificationsTest {
    TestServer server;
    Receiver receiver;
    Fixtures f;
    CallbackApi api;

    @BeforeEach
    void start() {
        api = CallbackApi.of(f, "user:invoices:read");
    }

    /** Registers, takes the code from the verification request and PUTs it back; returns the code. */
    private String registerAndVerify(long[] idOut, String event) {
        long id = api.registerId(event, receiver.uri());
        idOut[0] = id;
        String code = receiver.next("callback.verify").param("verifier");
        assertEquals(200, api.verify(id, code).status());
        return code;
    }

    @Test
    void aVerifiedCallbackReceivesItsEventsSignedWithTheCode() {
        long[] id = new long[1];
        String code = registerAndVerify(id, "invoice");
        Event e = f.publish("invoice.create", 4242);
        assertEquals(1, e.deliveries());

        Receiver.Request n = receiver.next("invoice.create");
        assertEquals(List.of("name", "object_id", "account_id", "user_id"), List.copyOf(n.params().keySet()));
        assertEquals("4242", n.param("object_id"));
        assertEquals(f.account().accountId(), n.param("account_id"));
        assertEquals(Long.toString(f.user().id()), n.param("user_id"));
        assertTrue(ServiceSignature.verify(code, n.body(), n.signature()), "signed with the verification code");
    }

    @Test
    void anUnverifiedCallbackGetsNoNotifications() {
        api.registerId("invoice.create", receiver.uri());
        assertEquals(0, f.publish("invoice.create", 1).deliveries());
    }

    @Test
    void aNounVerbSubscriptionGetsOnlyThatVerb() {
        long[] id = new long[1];
        registerAndVerify(id, "invoice.create");
        assertEquals(0, f.publish("invoice.update", 1).deliveries());
        assertEquals(1, f.publish("invoice.create", 2).deliveries());
        assertEquals("2", receiver.next("invoice.create").param("object_id"));
    }

    @Test
    void resendHoldsNotificationsUntilTheNewCodeComesBack() {
        long[] id = new long[1];
        registerAndVerify(id, "invoice");
        var resent = api.resend(id[0]);
        assertFalse(CallbackApi.record(resent).get("verified").asBoolean());
        String newCode = receiver.next("callback.verify").param("verifier");

        assertEquals(1, f.publish("invoice.create", 7).deliveries(), "still subscribed: the delivery is held");

        assertEquals(200, api.verify(id[0], newCode).status());
        assertEquals(1, f.publish("invoice.create", 8).deliveries());
        for (Receiver.Request n : List.of(receiver.next("invoice.create"), receiver.next("invoice.create"))) {
            assertTrue(Set.of("7", "8").contains(n.param("object_id")));
            assertTrue(ServiceSignature.verify(newCode, n.body(), n.signature()), "signed with the new code");
        }
    }

    @Test
    void resendReEnablesACallbackTheEngineDisabled() {
        long[] id = new long[1];
        registerAndVerify(id, "invoice");
        // What the delivery engine writes after the disable window of failures (V3 contract).
        server.services().database().jdbi().useHandle(h -> h.execute(
                "update callbacks set disabled = true, failing_since = created_at where id = ?", id[0]));
        assertTrue(CallbackApi.record(api.get(id[0])).get("disabled").asBoolean());
        assertEquals(0, f.publish("invoice.create", 1).deliveries(), "a disabled callback gets nothing");

        var resent = CallbackApi.record(api.resend(id[0]));
        assertFalse(resent.get("disabled").asBoolean());
        assertFalse(resent.get("verified").asBoolean());
        String code = receiver.next("callback.verify").param("verifier");
        assertEquals(200, api.verify(id[0], code).status());
        assertEquals(1, f.publish("invoice.create", 2).deliveries());
        assertEquals("2", receiver.next("invoice.create").param("object_id"));
    }

    @Test
    void aDeletedCallbackGetsNothingAndItsQueueIsDropped() {
        long[] id = new long[1];
        registerAndVerify(id, "invoice");
        assertEquals(200, api.delete(id[0]).status());
        assertEquals(0, f.publish("invoice.create", 1).deliveries());
        int left = server.services().database().jdbi().withHandle(h ->
                h.createQuery("select count(*) from deliveries where callback_id = :id").bind("id", id[0]).mapTo(Integer.class).one());
        assertEquals(0, left, "no delivery of the deleted callback remains queued or recorded");
    }
}
