package dev.ledgerlink.delivery;

import java.time.Duration;

/**
 * What one attempt came to: a 2xx (success), another status, or no response at all (status null).
 * {@code responseHeaders} are "Name: value" lines; {@code responseBody} the first 4 KiB, as text.
 */
record AttemptOutcome(Integer status, long durationMs, String error, String responseHeaders, String responseBody, Duration retryAfter) {

    boolean success() {
        return status != null && status >= 200 && status < 300;
    }

    static AttemptOutcome noResponse(long durationMs, String error) {
        return new AttemptOutcome(null, durationMs, error, null, null, null);
    }
}
