package dev.ledgerlink.delivery;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a delivery is (deliveries.state): pending until an attempt succeeds (delivered) or it is
 * given up (dropped, with its drop_reason); redeliver and recover make a finished one pending again.
 */
public enum DeliveryState {
    PENDING, DELIVERED, DROPPED;

    private static final DeliveryState[] ALL = values();
    private final String value = name().toLowerCase(Locale.ROOT);

    /** As deliveries.state stores it and the API shows it: {@code pending}, {@code delivered}, {@code dropped}. */
    public String value() {
        return value;
    }

    /** The state a stored or requested value names, if any. */
    public static Optional<DeliveryState> of(String value) {
        for (DeliveryState s : ALL) if (s.value().equals(value)) return Optional.of(s);
        return Optional.empty();
    }

    static DeliveryState stored(String value) {
        return of(value).orElseThrow(() -> new IllegalStateException("deliveries.state holds an unknown state: " + value));
    }
}
