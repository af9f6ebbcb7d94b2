package dev.ledgerlink.delivery;

import java.time.Duration;

/**
 * What one attempt came to: the status of its answer, or no response at all (status null), and the
 * wait its Retry-After asked for; what follows is retry.RetryRule's decision. {@code responseHeaders}
 * are "Name: value" lines; {@code responseBody} the first 4 KiB, as text.
 */
record AttemptOutcome(Integer status, long durationMs, String error, String responseHeaders, String responseBody, Duration retryAfter) {

    static AttemptOutcome noResponse(long durationMs, String error) {
        return new AttemptOutcome(null, durationMs, error, null, null, null);
    }
}
