package dev.ledgerlink.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Retry-After parsing: pure. */
class RetryAfterTest {
    private final Instant now = Instant.parse("2026-11-22T05:00:00Z");

    @Test
    void retryAfterIsReadOnlyOn429And503InSecondsOrAsAnHttpDate() {
        assertEquals(Duration.ofSeconds(120), RetryAfter.parse(429, "120", now));
        assertEquals(Duration.ofSeconds(30), RetryAfter.parse(503, "Sun, 22 Nov 2026 05:00:30 GMT", now));
        assertNull(RetryAfter.parse(500, "120", now));
        assertNull(RetryAfter.parse(429, "soon", now));
        assertNull(RetryAfter.parse(429, null, now));
        assertEquals(Duration.ZERO, RetryAfter.parse(503, "Sun, 22 Nov 2026 04:00:00 GMT", now));
    }
}
