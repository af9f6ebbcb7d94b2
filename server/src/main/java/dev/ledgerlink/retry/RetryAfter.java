package dev.ledgerlink.retry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads a receiver's Retry-After header (seconds or an HTTP date), honoured on 429 and 503 only: the
 * wait it asks for, which {@link RetryRule} never undercuts (capped there). Pure.
 */
public final class RetryAfter {
    private RetryAfter() {}

    /** The wait asked for, or null when the status carries none or the header is not one (an HTTP date already past is zero). */
    public static Duration parse(int status, String header, Instant now) {
        if ((status != 429 && status != 503) || header == null || header.isBlank()) return null;
        String v = header.trim();
        try {
            long seconds = Long.parseLong(v);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException notSeconds) {
            try {
                Duration d = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }
}
