package dev.ledgerlink.delivery;

import java.util.Locale;

/**
 * What a delivery carries (deliveries.kind): an event's notification to a subscribed callback, or a
 * callback's verification request (sent whatever the callback's state, with the latest code).
 */
public enum DeliveryKind {
    EVENT, VERIFICATION;

    private static final DeliveryKind[] ALL = values();
    private final String value = name().toLowerCase(Locale.ROOT);

    /** As deliveries.kind stores it and the API shows it: {@code event}, {@code verification}. */
    public String value() {
        return value;
    }

    static DeliveryKind stored(String value) {
        for (DeliveryKind k : ALL) if (k.value().equals(value)) return k;
        throw new IllegalStateException("deliveries.kind holds an unknown kind: " + value);
    }
}
