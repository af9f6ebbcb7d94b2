package dev.ledgerlink.delivery;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Now, as the database stores it: both keep microseconds and round the rest, so an instant with
 * nanoseconds could be stored a little later than it is and a row due "now" would not be due yet.
 */
public final class DbTime {
    private DbTime() {}

    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
