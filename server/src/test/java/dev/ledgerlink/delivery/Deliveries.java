package dev.ledgerlink.delivery;

import dev.ledgerlink.Services;
import dev.ledgerlink.testing.Metrics;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Small helpers of the delivery tests: wait for a state, read a callback's notifications, read a counter. */
public final class Deliveries {
    private Deliveries() {}

    /**
     * The callback's one notification delivery (its verification requests, sent during the
     * handshake of the set-up, are not counted).
     */
    static DeliveryRecord only(Services s, long callbackId) {
        List<DeliveryRecord> notifications = notifications(s, callbackId);
        if (notifications.size() != 1) throw new AssertionError("expected one notification, got " + notifications);
        return notifications.getFirst();
    }

    /** The callback's notification deliveries, newest first. */
    static List<DeliveryRecord> notifications(Services s, long callbackId) {
        return s.deliveryReads().history(null, callbackId, 1, 100).deliveries().stream()
                .filter(d -> d.kind() != DeliveryKind.VERIFICATION).toList();
    }

    /** The value of a counter on the server's /metrics, e.g. ledgerlink_deliveries_delivered_total (0 before the first). */
    static double counter(TestServer server, String name) {
        return Metrics.value(server, name).orElse(0);
    }

    public static void await(String what, BooleanSupplier condition) {
        dev.ledgerlink.testing.Eventually.await(what, condition);
    }
}
