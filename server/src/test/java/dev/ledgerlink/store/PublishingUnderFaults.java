package dev.ledgerlink.store;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestHttp;
import java.util.Set;

/**
 * What the tests of a fault under publishing load share (DatabaseOutageTest, DiskFullTest): a server
 * whose deliveries time out, retry and are taken over within seconds, events published over HTTP, and
 * a receiver that notes the object id of every event that reaches it.
 */
final class PublishingUnderFaults {
    private PublishingUnderFaults() {}

    /** The operator key and deliveries within seconds (a 2 s attempt, the given lease, retries from 0.5 s). */
    static Settings.Builder quickDeliveries(Settings.Builder s, String operatorKey, String lease) {
        return s.set(Setting.OPERATOR_KEY, operatorKey)
                .set(Setting.DELIVERY_TIMEOUT, "PT2S")
                .set(Setting.DELIVERY_LEASE, lease)
                .set(Setting.DELIVERY_POLL_INTERVAL, "PT0.2S")
                .set(Setting.DELIVERY_RETRY_SCHEDULE, "PT0.5S,PT1S,PT2S,PT2S,PT5S,PT5S,PT5S,PT10S,PT10S,PT10S");
    }

    /** The receiver answers 200 and adds the object id of each invoice.create it gets to {@code delivered}. */
    static void recordDelivered(Receiver receiver, Set<Long> delivered) {
        receiver.answer(r -> {
            String object = r.param("object_id");
            if ("invoice.create".equals(r.param("name")) && object != null) delivered.add(Long.parseLong(object));
            return Receiver.Answer.of(200);
        });
    }

    /** POST /internal/v1/events: invoice.create of this object in the account. */
    static TestHttp.Response publish(TestHttp http, String accountId, long objectId, String operatorKey) {
        return http.postJson("/internal/v1/events", "{\"name\":\"invoice.create\",\"account_id\":\"" + accountId
                + "\",\"object_id\":" + objectId + ",\"user_id\":1}", "Authorization", "Bearer " + operatorKey);
    }
}
