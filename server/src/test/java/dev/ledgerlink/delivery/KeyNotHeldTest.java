package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LogLines;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 43 item 4, the first step of a key rotation (docs/operations.md, "Keys"): while the nodes are
 * restarted one by one with the new key, a node that still holds only the old key meets a code another
 * node sealed with the new one. It sends nothing (it would sign with nothing it could open), records no
 * failed attempt, says once which key it lacks, and leaves the delivery to a node that holds the key,
 * which sends it signed with the callback's code.
 */
class KeyNotHeldTest {
    @TempDir
    Path dir;

    @Test
    void aNodeWithoutTheNewKeyLeavesTheDeliveryToANodeWithItAndSignsNothing() {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);
        String oldKey = TestServer.keyOf(db);
        String newKey = SecretBox.newKeyBase64();
        // The nodes' clocks follow real time: what one node leaves to the others falls due on theirs.
        try (Receiver receiver = new Receiver(); LogLines log = new LogLines();
             TestServer oldOnly = TestServer.start(db, s -> s.set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
             var oldClock = oldOnly.clock.followRealTime()) {
            Fixtures f;
            Fixtures.Verified callback;
            try (TestServer rolled = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, newKey).set(Setting.SECRETS_PREVIOUS_KEY, oldKey)
                    .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
                 var rolledClock = rolled.clock.followRealTime()) {
                f = Fixtures.create(rolled);
                callback = f.verified("invoice", receiver);   // its code sealed with the new key
            }
            receiver.clear();
            oldOnly.services().events().publish(new EventPublisher.Request("invoice.create", f.account().accountId(), 42L, f.user().id(), null));
            String fingerprint = SecretBox.fromBase64(newKey).keyId();
            Eventually.await("the node without the key says which one it lacks", () -> !log.matching(l ->
                    l.message().contains("sealed with the key " + fingerprint + ", which this node does not hold")).isEmpty());
            long attempts = oldOnly.services().database().jdbi().withHandle(h -> h.createQuery(
                    "select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id where d.kind = 'event'").mapTo(Long.class).one());
            assertEquals(0, attempts, "no attempt made or recorded as failed");
            assertEquals(0, receiver.received(), "nothing sent");

            try (TestServer holder = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, newKey).set(Setting.SECRETS_PREVIOUS_KEY, oldKey)
                    .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.1S"));
                 var holderClock = holder.clock.followRealTime()) {
                Receiver.Request sent = receiver.next("invoice.create");
                assertTrue(ServiceSignature.verify(callback.code(), sent.body(), sent.signature()), "signed with the callback's code");
            }
        }
    }
}
