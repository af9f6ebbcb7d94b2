package dev.ledgerlink.store;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Now, as the database stores it, for every timestamp a capability writes: whole microseconds. Both
 * databases keep microseconds (H2 rounds the rest, PostgreSQL truncates), so an instant with
 * nanoseconds could be stored a little later than it is (a row due "now" would not be due yet) and
 * would not read back equal to what was written.
 */
public final class DbTime {
    private DbTime() {}

    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
