package dev.ledgerlink.sandbox;

import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The test-delivery rule of development mode (docs/sandbox.md, "Test deliveries"): how a delivery
 * of a test event is sent differently from a real one, so that a developer can see their receiver
 * refuse what it must refuse. The signatures themselves are the signature module's, computed exactly
 * as for any delivery; only this rule spoils them or dates them back, so the signer stays one.
 *
 * <ul>
 *   <li>{@code signature}: {@code valid}; {@code tampered}, both signatures made wrong (a bit of each
 *   HMAC flipped); {@code stale}, {@code webhook-timestamp} {@link #STALE_BY} in the past and both
 *   signatures correct over it, so only a receiver that checks the timestamp refuses it.</li>
 *   <li>{@code copies}: the same request (same {@code webhook-id} and {@code X-Service-Event-Id})
 *   sent this many times in each attempt, as an at-least-once sender may; the attempt succeeds only
 *   if every copy is answered with a 2xx.</li>
 *   <li>{@code delay}: first due this long after the publish.</li>
 *   <li>{@code order}: with several events in one call, the order their deliveries to one callback
 *   are sent in: {@code as_sent}, {@code reversed} or {@code shuffled}; each is sent once the one
 *   before it has had its first attempt answered.</li>
 * </ul>
 * Stored with each delivery (test_deliveries, V37: {@link TestDeliveryStore}), so a restart or a
 * retry sends it the same way; a development-mode server's engine learns them through the delivery
 * package's one hook for development mode ({@link TestDeliveryHooks}).
 */
public record TestDelivery(Signature signature, int copies, Duration delay, Order order) {
    public static final int MAX_COPIES = 10;
    public static final Duration MAX_DELAY = Duration.ofHours(1);
    /** How far back a stale delivery's webhook-timestamp is: twice the five minutes receivers commonly allow. */
    public static final Duration STALE_BY = Duration.ofMinutes(10);

    /**
     * Past the first place of an ordered sequence, a delivery waits for the one before it; should that
     * one's answer never be recorded (its process died mid-attempt), it goes anyway this long after.
     */
    static final Duration HOLD_PER_PLACE = Duration.ofMinutes(5);

    /** Where one event's deliveries stand in the order of their call: {@code sequence} names the call, 0 goes first, of {@code size}. */
    public record Place(String sequence, int position, int size) {}

    /**
     * When the deliveries of an event published at {@code now} are first due: after the delay, and
     * in an ordered call ({@code place} not null) {@link #HOLD_PER_PLACE} later per place before
     * theirs, unless the one before is answered sooner (TestDeliveryHooks).
     */
    Instant firstDue(Instant now, Place place) {
        Instant due = now.plus(delay);
        return place == null ? due : due.plus(HOLD_PER_PLACE.multipliedBy(place.position()));
    }

    /** A test delivery sent like a real one. */
    public static final TestDelivery PLAIN = new TestDelivery(Signature.VALID, 1, Duration.ZERO, Order.AS_SENT);

    public enum Signature {
        VALID, TAMPERED, STALE;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Order {
        AS_SENT, REVERSED, SHUFFLED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public TestDelivery {
        if (signature == null || order == null || delay == null) throw new IllegalArgumentException("signature, delay and order are required");
        if (copies < 1 || copies > MAX_COPIES) throw new IllegalArgumentException("copies must be 1 to " + MAX_COPIES);
        if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) throw new IllegalArgumentException("delay must be PT0S to " + MAX_DELAY);
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

    /**
     * The options as a client wrote them (each null when left out), checked: every violation is named
     * under {@code prefix} (for example {@code delivery.copies}) in one 422.
     */
    public static TestDelivery parse(String prefix, String signature, Integer copies, String delay, String order) {
        var v = new Validation();
        Signature s = choice(Signature.class, signature, Signature.VALID, v, prefix + "signature", "valid, tampered or stale");
        Order o = choice(Order.class, order, Order.AS_SENT, v, prefix + "order", "as_sent, reversed or shuffled");
        v.check(copies == null || (copies >= 1 && copies <= MAX_COPIES), prefix + "copies", "must be an integer from 1 to " + MAX_COPIES);
        Duration d = Duration.ZERO;
        if (delay != null) {
            try {
                d = Duration.parse(delay);
                v.check(!d.isNegative() && d.compareTo(MAX_DELAY) <= 0, prefix + "delay", "must be from PT0S to " + MAX_DELAY);
            } catch (DateTimeParseException e) {
                v.add(prefix + "delay", "must be an ISO-8601 duration such as PT30S");
            }
        }
        v.throwIfInvalid();
        return new TestDelivery(s, copies == null ? 1 : copies, d, o);
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String given, E absent, Validation v, String field, String allowed) {
        if (given == null) return absent;
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(given)) return e;
        }
        v.add(field, "must be " + allowed);
        return absent;
    }

    /** As stored in test_deliveries (V37). */
    static TestDelivery stored(String signature, int copies, long delaySeconds, String order) {
        return new TestDelivery(Signature.valueOf(signature.toUpperCase(Locale.ROOT)), copies, Duration.ofSeconds(delaySeconds),
                Order.valueOf(order.toUpperCase(Locale.ROOT)));
    }

    /** The options as the test-event route takes them, and as the history shows them under "test". */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("signature", signature.value());
        m.put("copies", copies);
        m.put("delay", delay.toString());
        m.put("order", order.value());
        return m;
    }

    /** The webhook-timestamp an attempt at {@code nowSeconds} carries. */
    long timestamp(long nowSeconds) {
        return signature == Signature.STALE ? nowSeconds - STALE_BY.toSeconds() : nowSeconds;
    }

    /** Spoils both signatures of a tampered delivery (in place); leaves the others alone. */
    void apply(Map<String, String> headers) {
        if (signature != Signature.TAMPERED) return;
        headers.put(ServiceSignature.HEADER, flipped(headers.get(ServiceSignature.HEADER)));
        String sw = headers.get(StandardWebhooks.SIGNATURE);
        int comma = sw.indexOf(',');
        headers.put(StandardWebhooks.SIGNATURE, sw.substring(0, comma + 1) + flipped(sw.substring(comma + 1)));
    }

    /** A base64 HMAC with one bit of its first byte flipped: still well-formed, never the right value. */
    private static String flipped(String base64) {
        byte[] mac = Base64.getDecoder().decode(base64);
        mac[0] ^= 0x01;
        return Base64.getEncoder().encodeToString(mac);
    }
}
