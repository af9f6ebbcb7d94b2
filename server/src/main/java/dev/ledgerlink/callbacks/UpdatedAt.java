package dev.ledgerlink.callbacks;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * How a callback's {@code updated_at} is written (decisions.md "Callbacks"): "YYYY-MM-DD HH:MM:SS" in
 * US Eastern time (America/New_York, daylight saving included), because both public client libraries
 * read the field that way; a UTC value would show 4-5 hours off to their users. Stored as an instant.
 */
public final class UpdatedAt {
    public static final ZoneId ZONE = ZoneId.of("America/New_York");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZONE);

    private UpdatedAt() {}

    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }
}
