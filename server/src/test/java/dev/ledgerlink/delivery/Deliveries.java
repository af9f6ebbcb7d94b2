package dev.ledgerlink.delivery;

import dev.ledgerlink.Services;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventPublisher;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Small helpers of the delivery tests: publish, wait for a state, read a delivery's history. */
public final class Deliveries {
    private Deliveries() {}

    static Event publish(Services s, CallbackFixture f, String name, long objectId) {
        return s.events().publish(new EventPublisher.Request(name, f.account.accountId(), objectId, f.user.id(), null));
    }

    static DeliveryRecord only(Services s, long callbackId) {
        var page = s.deliveries().history(null, callbackId, 1, 100);
        if (page.deliveries().size() != 1) throw new AssertionError("expected one delivery, got " + page.deliveries());
        return page.deliveries().getFirst();
    }

    public static void await(String what, BooleanSupplier condition) {
        dev.ledgerlink.testing.Eventually.await(what, condition);
    }

    static int freePort() {
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
