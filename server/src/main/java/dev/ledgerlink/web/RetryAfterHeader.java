package dev.ledgerlink.web;

import io.javalin.http.Context;
import java.time.Duration;

/** The Retry-After header of an answer that asks the client to come back later: whole seconds, at least 1. */
final class RetryAfterHeader {
    private RetryAfterHeader() {}

    static void set(Context ctx, Duration retryAfter) {
        ctx.header("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
    }
}
