package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** updated_at is US Eastern wall time, daylight saving included, as both public client libraries read it. */
class UpdatedAtTest {

    @Test
    void winterIsFiveHoursBehindUtc() {
        assertEquals("2026-01-15 11:00:00", UpdatedAt.format(Instant.parse("2026-01-15T16:00:00Z")));
    }

    @Test
    void summerIsFourHoursBehindUtc() {
        assertEquals("2026-07-01 12:00:00", UpdatedAt.format(Instant.parse("2026-07-01T16:00:00Z")));
    }

    @Test
    void theDaylightSavingSwitchesFollowNewYork() {
        // 2026-03-08 02:00 EST becomes 03:00 EDT; 2026-11-01 02:00 EDT becomes 01:00 EST
        assertEquals("2026-03-08 01:59:59", UpdatedAt.format(Instant.parse("2026-03-08T06:59:59Z")));
        assertEquals("2026-03-08 03:00:00", UpdatedAt.format(Instant.parse("2026-03-08T07:00:00Z")));
        assertEquals("2026-11-01 01:30:00", UpdatedAt.format(Instant.parse("2026-11-01T05:30:00Z")));
        assertEquals("2026-11-01 01:30:00", UpdatedAt.format(Instant.parse("2026-11-01T06:30:00Z")));
    }

    @Test
    void secondsAreTruncatedNotRounded() {
        assertEquals("2026-11-22 05:00:00", UpdatedAt.format(Instant.parse("2026-11-22T10:00:00.999999Z")));
    }
}
