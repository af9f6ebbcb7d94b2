package dev.ledgerlink.client.sandbox;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How the deliveries of a test event are sent, to see a receiver refuse what it must refuse
 * (docs/sandbox.md, "Test deliveries"): a tampered or stale signature, copies of one message, a
 * delay before the first attempt, and the order of several events.
 *
 * <pre>{@code
 * sandbox.publish("SBX01", "invoice.create", 42, userId, TestDelivery.PLAIN.withSignature(TestDelivery.Signature.TAMPERED));
 * }</pre>
 *
 * @param signature valid (default), tampered (both signatures wrong) or stale (ten minutes old, correctly signed)
 * @param copies    the same request this many times in each attempt, 1 (default) to 10
 * @param delay     the first attempt this long after the publish, zero (default) to one hour
 * @param order     for several events: as sent (default), reversed or shuffled
 */
public record TestDelivery(Signature signature, int copies, Duration delay, Order order) {
    /** A delivery like a real one's, marked as a test in the history. */
    public static final TestDelivery PLAIN = new TestDelivery(Signature.VALID, 1, Duration.ZERO, Order.AS_SENT);

    public TestDelivery {
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(order, "order");
    }

    public enum Signature {
        VALID, TAMPERED, STALE;

        /** As the sandbox's routes write it: valid, tampered, stale. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Order {
        AS_SENT, REVERSED, SHUFFLED;

        /** As the sandbox's routes write it: as_sent, reversed, shuffled. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public TestDelivery withSignature(Signature s) {
        return new TestDelivery(s, copies, delay, order);
    }

    public TestDelivery withCopies(int n) {
        return new TestDelivery(signature, n, delay, order);
    }

    public TestDelivery withDelay(Duration d) {
        return new TestDelivery(signature, copies, d, order);
    }

    public TestDelivery withOrder(Order o) {
        return new TestDelivery(signature, copies, delay, o);
    }
}
