package dev.ledgerlink.web;

import dev.ledgerlink.oauth.PasswordLogin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.time.Duration;

/**
 * The status of a sign-in form shown again after a refused try, the same on the authorization page,
 * the account page and in the console: 429 when the login throttle refused it, 503 when the server was too busy to
 * check the password (both with Retry-After), and the page's own status
 * for a missing or wrong password.
 */
public final class SignInRefusals {
    private SignInRefusals() {}

    public static void status(Context ctx, PasswordLogin.Refusal refusal, Duration retryAfter, HttpStatus invalid) {
        switch (refusal) {
            case THROTTLED -> withRetryAfter(ctx, HttpStatus.TOO_MANY_REQUESTS, retryAfter);
            case BUSY -> withRetryAfter(ctx, HttpStatus.SERVICE_UNAVAILABLE, retryAfter);
            case INVALID -> ctx.status(invalid);
        }
    }

    /**
     * The second factor's form shown again: 429 with Retry-After when the throttle refused the code,
     * the page's own status for a wrong one (the same status as a wrong password), 200 when first shown.
     */
    public static void secondFactor(Context ctx, String problem, Duration retryAfter, HttpStatus invalid) {
        if (retryAfter != null) {
            withRetryAfter(ctx, HttpStatus.TOO_MANY_REQUESTS, retryAfter);
        } else if (problem != null) {
            ctx.status(invalid);
            ErrorNote.note(ctx, null, problem);   // the journal's "why" of a refused code (never the code)
        }
    }

    private static void withRetryAfter(Context ctx, HttpStatus status, Duration retryAfter) {
        ctx.status(status);
        RetryAfterHeader.set(ctx, retryAfter);
    }
}
