package dev.ledgerlink.delivery;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a delivery is (deliveries.state): pending until an attempt succeeds (delivered) or it is
 * given up (dropped, with its drop_reason); redeliver and recover make a finished one pending again.
 * Held: its callback awaits verification of a resent code (re-keying); never claimed, it becomes
 * pending, due at once, when the new code is verified, or dropped if that does not happen in time.
 */
public enum DeliveryState {
    PENDING("pending"), HELD("waiting for verification"), DELIVERED("delivered"), DROPPED("dropped");

    private static final DeliveryState[] ALL = values();
    private final String value = name().toLowerCase(Locale.ROOT);
    private final String description;

    DeliveryState(String description) {
        this.description = description;
    }

    /** As deliveries.state stores it and the API shows it: {@code pending}, {@code held}, {@code delivered}, {@code dropped}. */
    public String value() {
        return value;
    }

    /** In words, for people (the API's state_description, the console, the CLI): a held one is "waiting for verification". */
    public String description() {
        return description;
    }

    /** Still to be sent: pending, or held until its callback's new code is verified. */
    public boolean queued() {
        return this == PENDING || this == HELD;
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
